// The Tafel's rules T2–T5 for the phone, so that a board with rounds not
// sent yet still shows points, totals and the outcome. The one definition
// is the Python domain (ligretto.tafel.game); this is its small mirror,
// checked against it clause by clause with shared test vectors generated
// from the domain (tests/helpers/tafel_vectors.json, run in Python and in
// the browser). Error codes are the domain's (ligretto.tafel.errors.Code).
export const STACK_CARDS = 10;
export const DECK_CARDS = 40;
export const STACK_PENALTY = 2;
export const MAX_ROUNDS = 1000;

export const points = (middle, stack) => middle - STACK_PENALTY * stack; // R5
export const middleLimit = (stack) => DECK_CARDS - stack; // T3
export const leastPlausibleMiddle = (stack) => STACK_CARDS - stack; // T3

export class RuleError extends Error {
  constructor(code, detail = {}) {
    super(code);
    this.code = code;
    this.detail = detail;
  }
}

const whole = (value) => Number.isInteger(value);

// A game as plain data: {players, mode, target, agreed_rounds, row_storage,
// closed, scored, rounds: [{stacks, middle|null, confirmed}]}.
export function copyGame(game) {
  return { ...game, rounds: game.rounds.map((r) => ({ ...r })) };
}

export function checkStacks(game, stacks) {
  if (!Array.isArray(stacks) || stacks.length !== game.players.length) throw new RuleError("missing_player");
  stacks.forEach((value, seat) => {
    if (!whole(value)) throw new RuleError("not_a_whole_number", { seat, low: 0, high: STACK_CARDS });
    if (value < 0 || value > STACK_CARDS) throw new RuleError("out_of_range", { seat, low: 0, high: STACK_CARDS });
  });
  const callers = stacks.flatMap((s, seat) => (s === 0 ? [seat] : []));
  if (callers.length > 1) throw new RuleError("two_callers", { seats: callers }); // T2
  return [...stacks];
}

export function checkMiddle(game, stacks, middle, confirm = false) {
  if (!Array.isArray(middle) || middle.length !== game.players.length) throw new RuleError("missing_player");
  middle.forEach((value, seat) => {
    const high = middleLimit(stacks[seat]);
    if (!whole(value)) throw new RuleError("not_a_whole_number", { seat, low: 0, high });
    if (value < 0 || value > high) throw new RuleError("out_of_range", { seat, low: 0, high });
  });
  if (!game.row_storage && !confirm) {
    const odd = middle.flatMap((m, seat) => (m < leastPlausibleMiddle(stacks[seat]) ? [seat] : []));
    if (odd.length) throw new RuleError("implausible", { seats: odd }); // T3
  }
  return [...middle];
}

// Totals, the T4 outcome and complete rounds over the rounds, in one pass.
function scan(game, rounds) {
  const totals = game.players.map(() => 0);
  let reached = false;
  let decided = null;
  let complete = 0;
  const target = game.mode === "target" ? game.target : null;
  for (const round of rounds) {
    if (!round.middle) break;
    complete += 1;
    round.middle.forEach((m, seat) => { totals[seat] += points(m, round.stacks[seat]); });
    if (target !== null && decided === null) {
      const top = Math.max(...totals);
      if (top >= target) reached = true; // T4: the target is reached …
      if (reached && totals.filter((t) => t === top).length === 1) decided = complete; // … one alone leads
    }
  }
  return { totals, reached, decided, complete };
}

// Everything the board shows, derived from the rounds (never stored, T6).
export function derive(game) {
  const state = scan(game, game.rounds);
  const { totals } = state;
  const ranks = totals.map((t) => 1 + totals.filter((o) => o > t).length);
  let status = "playing";
  if (game.closed) status = "finished";
  else if (game.mode === "target") status = state.decided !== null ? "finished" : state.reached ? "tiebreak" : "playing";
  else if (state.complete >= game.agreed_rounds) status = "finished";
  const top = Math.max(...totals);
  const winners = status === "finished" ? game.players.filter((_, seat) => totals[seat] === top) : [];
  const running = [];
  const sums = game.players.map(() => 0);
  for (const round of game.rounds) {
    if (!round.middle) { running.push(null); continue; }
    round.middle.forEach((m, seat) => { sums[seat] += points(m, round.stacks[seat]); });
    running.push([...sums]);
  }
  const last = game.rounds[game.rounds.length - 1];
  const pending = last && !last.middle ? game.rounds.length : null;
  let acceptsNewRound = true;
  try { verifyCanOpen(game); } catch { acceptsNewRound = false; }
  return {
    totals, ranks, status, winners, running, pending, acceptsNewRound,
    decidedAfter: state.decided, completeRounds: state.complete,
    roundsLeft: game.mode === "rounds" ? Math.max(game.agreed_rounds - state.complete, 0) : null,
  };
}

function verifyCanOpen(game) {
  const last = game.rounds[game.rounds.length - 1];
  if (last && !last.middle) throw new RuleError("round_pending");
  if (game.closed) throw new RuleError("game_finished");
  if (game.mode === "rounds") {
    if (game.rounds.length >= game.agreed_rounds) throw new RuleError("all_rounds_played");
  } else if (scan(game, game.rounds).decided !== null) {
    throw new RuleError("game_finished");
  }
  if (game.rounds.length >= MAX_ROUNDS) throw new RuleError("too_many_rounds");
}

function roundAt(game, number) {
  if (!whole(number) || number < 1 || number > game.rounds.length) throw new RuleError("no_such_round");
  return game.rounds[number - 1];
}

// The entries of the Tafel; each checks everything first and changes
// nothing when it throws (as the domain does).
export function openRound(game, stacks) {
  verifyCanOpen(game);
  const checked = checkStacks(game, stacks);
  game.rounds.push({ stacks: checked, middle: null, confirmed: false });
  return game.rounds.length;
}

export function completeRound(game, number, middle, confirm = false) {
  const old = roundAt(game, number);
  if (old.middle) throw new RuleError("round_not_pending");
  const checked = checkMiddle(game, old.stacks, middle, confirm);
  game.rounds[number - 1] = { stacks: old.stacks, middle: checked, confirmed: confirm };
  return number;
}

export function correctRound(game, number, { stacks = null, middle = null, confirm = false } = {}) {
  const old = roundAt(game, number);
  const newStacks = stacks === null ? old.stacks : checkStacks(game, stacks);
  let newMiddle = null;
  let confirmed = false;
  if (middle !== null) {
    newMiddle = checkMiddle(game, newStacks, middle, confirm);
    confirmed = confirm;
  } else if (old.middle) {
    confirmed = old.confirmed || confirm;
    newMiddle = checkMiddle(game, newStacks, old.middle, confirmed);
  }
  const candidate = [...game.rounds];
  candidate[number - 1] = { stacks: newStacks, middle: newMiddle, confirmed };
  if (game.mode === "target") {
    const decided = scan(game, candidate).decided;
    if (decided !== null && decided < candidate.length) throw new RuleError("decided_earlier"); // T4
  }
  game.rounds = candidate;
  return number;
}

export function removeLastRound(game, number = null) {
  if (!game.rounds.length) throw new RuleError("no_such_round");
  if (number !== null) {
    roundAt(game, number);
    if (number !== game.rounds.length) throw new RuleError("not_last_round");
  }
  game.rounds.pop();
  game.closed = false;
  game.scored = false;
}

function verifyCanFinish(game) {
  const last = game.rounds[game.rounds.length - 1];
  if (last && !last.middle) throw new RuleError("round_pending");
  if (scan(game, game.rounds).complete === 0) throw new RuleError("no_rounds");
}

export function finish(game) {
  if (game.closed) return;
  verifyCanFinish(game);
  game.closed = true;
}

export function score(game) {
  if (!game.closed) verifyCanFinish(game);
  game.closed = true;
  game.scored = true;
}
