// Rounds entered on this phone and not yet on the server, in IndexedDB:
// they survive a reload, a closed tab and a phone that locks, and are sent
// in the order they were entered. One record per entry:
// {id, game, kind: "stacks"|"middle"|"correct"|"remove", round, counts,
// confirm, base, state, key, at} where base is the game version the entry was
// made on (sent as If-Match) and state, on the first entry only, the game itself
// at that version (offline/state.js): what the phone's entries mean and what
// a conflict is measured against, whatever the page hears live meanwhile.
// key is the entry's Idempotency-Key, made once when it is kept: sent again
// after a lost answer, the server answers as the first time instead of
// saving the round twice. Entries put back after a conflict get new keys:
// they are new writes, decided on the server's board.
const DB = "ligretto";
const STORE = "outbox";

// crypto.randomUUID needs a secure context; a server on the local network
// over plain http has only getRandomValues.
function newKey() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function open() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB, 1);
    request.onupgradeneeded = () => {
      const store = request.result.createObjectStore(STORE, { keyPath: "id", autoIncrement: true });
      store.createIndex("game", "game");
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

async function run(mode, work) {
  const db = await open();
  try {
    return await new Promise((resolve, reject) => {
      const tx = db.transaction(STORE, mode);
      const result = work(tx.objectStore(STORE));
      tx.oncomplete = () => resolve(result && "result" in result ? result.result : undefined);
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error);
    });
  } finally {
    db.close();
  }
}

export async function pending(game) {
  const all = await run("readonly", (store) => store.index("game").getAll(game));
  return (all || []).sort((a, b) => a.id - b.id);
}

export function add(entry) {
  return run("readwrite", (store) => store.add({ ...entry, key: newKey(), at: Date.now() }));
}

export function update(entry) {
  return run("readwrite", (store) => store.put(entry));
}

export function remove(id) {
  return run("readwrite", (store) => store.delete(id));
}

export async function replace(game, entries) {
  const old = await pending(game);
  await run("readwrite", (store) => {
    for (const entry of old) store.delete(entry.id);
    for (const entry of entries) store.add({ ...entry, game, key: newKey(), at: Date.now() });
  });
}
