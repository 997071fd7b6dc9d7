// The state the offline board shows: the server's game (the page's
// game-state) with what waits on the phone applied by the phone's rules.
import * as rules from "../rules.js";
import { readJson } from "./texts.js";

// The edit page's session: its game, what waits, and how sending goes.
export const S = {
  game: null, // {id, token}
  entries: [],
  connected: navigator.onLine,
  sending: false,
  conflict: null, // {server, list} while the scorekeeper decides
  refused: null, // {entry, detail}
  lastSentRound: 0,
  lastSentKind: "middle",
};

export const editBase = () => `/g/${S.game.id}/edit`;

// The server's game as the page was drawn (a fresh copy each time).
export function baseState() {
  const state = readJson("game-state");
  return state ? { ...state, rounds: state.rounds.map((r) => ({ ...r })) } : null;
}

// The game the waiting entries of *list* build on, as it was when the first
// of them was kept (kept with it, outbox.js). The page's game-state may show
// another phone's change since (a live update): applied on that, the
// phone's entries would change meaning and a conflict would compare the
// server with itself. The page's own when nothing waits or an entry was
// kept without it.
export function waitingBase(list = S.entries) {
  const kept = list[0]?.state;
  return kept ? rules.copyGame(kept) : baseState();
}

// One kept entry applied to *game* (changed in place; throws as the rules refuse).
export function step(game, entry) {
  if (entry.kind === "stacks") rules.openRound(game, entry.counts);
  else if (entry.kind === "middle") rules.completeRound(game, entry.round, entry.counts, entry.confirm);
  else if (entry.kind === "correct") {
    rules.correctRound(game, entry.round, { stacks: entry.counts, middle: entry.middle, confirm: entry.confirm });
  } else if (entry.kind === "remove") rules.removeLastRound(game, entry.round);
}

// *list* applied to *state*: the phone's game, the rounds not sent yet,
// and the entries the rules refuse there.
export function apply(state, list) {
  const local = rules.copyGame(state);
  const unsent = new Set();
  const failed = [];
  for (const entry of list) {
    try {
      step(local, entry);
      if (entry.kind === "remove") unsent.delete(entry.round);
      else unsent.add(entry.round);
    } catch (error) {
      failed.push({ entry, code: error.code || "error" });
    }
  }
  return { local, unsent, failed };
}

// Load *address* afresh, also when it is the page's own.
export function reload(address) {
  history.replaceState(history.state, "", address);
  location.reload();
}
