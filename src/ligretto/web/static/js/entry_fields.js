// The board's entry forms, field by field: big − / + steppers, the one-tap
// Ligretto Stop (T2), each field checked as it is typed (T2, T3) and the
// live preview of each player's points (R5: middle − penalty × stack, the
// penalty per stack card rendered by the server as data-stack-penalty).
// Imported by board.js, which asks it to check and preview restored drafts.

const MINUS = "\u2212";
const fmt = (n) => (n < 0 ? MINUS + String(-n) : String(n));
const signed = (n) => (n > 0 ? "+" + n : fmt(n));

function readNumber(input) {
  const text = input.value.trim();
  if (!/^\d+$/.test(text)) return null;
  return Number(text);
}

// --- steppers: big − / + buttons around each number field ---
function step(input, delta) {
  navigator.vibrate?.(8); // a tick under the thumb
  const min = Number(input.min || 0);
  const max = Number(input.max || 99);
  const current = readNumber(input);
  let next;
  if (current === null) next = delta > 0 ? Math.max(min, 1) : min;
  else next = Math.min(max, Math.max(min, current + delta));
  input.value = String(next);
  input.dispatchEvent(new Event("input", { bubbles: true }));
}

document.addEventListener("click", (event) => {
  const button = event.target.closest("[data-step]");
  if (!button) return;
  const input = button.parentElement.querySelector("input");
  if (input && !input.readOnly) step(input, Number(button.dataset.step));
});

// Holding a stepper repeats it, for the middle counts that run to 20 and more.
document.addEventListener("pointerdown", (event) => {
  const button = event.target.closest("[data-step]");
  if (!button) return;
  const input = button.parentElement.querySelector("input");
  let timer = setTimeout(function repeat() {
    step(input, Number(button.dataset.step));
    timer = setTimeout(repeat, 90);
  }, 450);
  const stop = () => clearTimeout(timer);
  button.addEventListener("pointerup", stop, { once: true });
  button.addEventListener("pointerleave", stop, { once: true });
  button.addEventListener("pointercancel", stop, { once: true });
});

// --- Ligretto Stop: one tap sets the caller's stack to 0 (T2) ---
// Only one player calls a round (T2): ticking a second Stop moves it there,
// and the first caller's field gets back what it held before.
function stopBoxes(form) {
  return [...(form?.querySelectorAll("input[data-stop-for]") || [])];
}

function syncStop(checkbox) {
  const input = document.getElementById(checkbox.dataset.stopFor);
  const entry = checkbox.closest(".entry");
  if (!input) return;
  if (checkbox.checked) {
    for (const other of stopBoxes(checkbox.form)) {
      if (other !== checkbox && other.checked) {
        other.checked = false;
        syncStop(other);
      }
    }
    if (input.value !== "0") input.dataset.before = input.value;
    input.value = "0";
  } else if (input.value === "0") {
    input.value = input.dataset.before || "";
  }
  entry?.classList.toggle("is-caller", checkbox.checked);
  check(input);
  updatePreview(input);
}

document.addEventListener("change", (event) => {
  if (event.target.matches("input[data-stop-for]")) syncStop(event.target);
});

// --- each field is checked as soon as it is typed (T2, T3) ---
// The messages are the server's own (rendered into the entry's data
// attributes), so the page and the server say the same thing.
function fieldLimit(input) {
  const entry = input.closest(".entry");
  if (input.id.startsWith("middle-") && entry?.dataset.cards) {
    // T3: 0 to the deck minus the stack; on the correction page the stack
    // is typed in the same form.
    const stackInput = input.form?.querySelector(`#stack-${entry.dataset.player}`);
    const typed = stackInput ? readStack(stackInput) : null;
    const stack = typed === null ? Number(entry.querySelector("output")?.dataset.stack || 0) : typed;
    input.max = String(Number(entry.dataset.cards) - stack);
  }
  return Number(input.max);
}

function readStack(input) {
  const value = readNumber(input);
  return value !== null && value <= Number(input.max) ? value : null;
}

// What is wrong with a field, as { message, blocking }: a number out of
// range cannot be saved; two empty stacks go to the server, whose refusal
// names both fields (as it does without JavaScript).
function problem(input) {
  const fine = { message: "", blocking: false };
  const entry = input.closest(".entry");
  const text = input.value.trim();
  // A row without the server's sentences (none is drawn so today) keeps the browser's own checks.
  if (!entry?.dataset.rangeError || !entry.dataset.wholeError) return fine;
  const whole = { message: entry.dataset.wholeError, blocking: true };
  if (input.validity.badInput) return whole;
  if (text === "") return fine;
  if (!/^[-\u2212]?\d+$/.test(text)) return whole;
  const max = fieldLimit(input);
  const value = Number(text.replace(MINUS, "-"));
  if (value < 0 || value > max) {
    return { message: entry.dataset.rangeError.replace("{max}", String(max)), blocking: true };
  }
  if (value === 0 && input.id.startsWith("stack-")) {
    // T2: a second empty stack is a second caller.
    const list = input.closest(".entry-list");
    const empty = [...list.querySelectorAll(".entry")].filter((other) => {
      const field = other.querySelector("input[type=number]");
      return field && field.value.trim() === "0";
    });
    if (empty.length > 1 && list.dataset.twoCallers) {
      const names = empty.map((e) => e.dataset.name).join(" & ");
      return { message: list.dataset.twoCallers.replace("{names}", names), blocking: false };
    }
  }
  return fine;
}

export function check(input) {
  const { message, blocking } = problem(input);
  input.setCustomValidity(blocking ? message : "");
  if (message) input.setAttribute("aria-invalid", "true");
  else input.removeAttribute("aria-invalid");
  const note = document.getElementById(`${input.id}-error`);
  if (note) note.textContent = message;
  return !message;
}

// --- live preview of each player's points before saving ---
// Only for a valid number: never "−2 × 11".
export function updatePreview(input) {
  const entry = input.closest(".entry");
  const output = entry?.querySelector("output[data-preview]");
  if (!output) return;
  const value = problem(input).blocking || input.validity.rangeOverflow ? null : readNumber(input);
  const kind = output.dataset.preview;
  const penalty = Number(output.dataset.stackPenalty);
  if (kind === "stack") {
    // Stacks only: what this round costs so far (−penalty per card, R5).
    const stop = entry.querySelector("input[data-stop-for]");
    if (stop && value !== null) {
      // A typed 0 is a call, unless another player called already (then
      // the message above says two stacks are empty).
      const called = stopBoxes(input.form).some((box) => box !== stop && box.checked);
      if (value === 0 && !stop.checked && !called) { stop.checked = true; entry.classList.add("is-caller"); }
      if (value !== 0 && stop.checked) { stop.checked = false; entry.classList.remove("is-caller"); }
    }
    output.innerHTML = value === null ? "" : `<span class="points">${fmt(-penalty * value)}</span><span class="formula">−${penalty} × ${value}</span>`;
  } else {
    // On the correction page the stack is being edited in the same form.
    const stackInput = output.closest("form")?.querySelector(`#stack-${output.dataset.seat}`);
    const typed = stackInput ? readStack(stackInput) : null;
    if (stackInput && typed === null && stackInput.value.trim() !== "") { output.textContent = ""; return; }
    const stack = typed === null ? Number(output.dataset.stack) : typed;
    if (value === null) { output.textContent = ""; return; }
    const points = value - penalty * stack;
    const sum = output.dataset.total === undefined ? "" : ` · Σ ${fmt(Number(output.dataset.total) + points)}`;
    output.innerHTML = `<span class="points">${signed(points)}</span><span class="formula">${value} − ${penalty} × ${stack}${sum}</span>`;
  }
}

document.addEventListener("input", (event) => {
  if (!event.target.matches(".entry input[type=number]")) return;
  check(event.target);
  updatePreview(event.target);
  // A changed stack changes that player's points in the middle step too,
  // and whether another empty stack is still a second caller.
  const seat = event.target.id.startsWith("stack-") ? event.target.id.slice(6) : null;
  const middle = seat === null ? null : document.getElementById(`middle-${seat}`);
  if (middle) {
    if (middle.value.trim() !== "") check(middle);
    updatePreview(middle);
  }
  if (seat !== null) {
    for (const other of event.target.form?.querySelectorAll(".entry input[id^=stack-]") || []) {
      if (other !== event.target && other.getAttribute("aria-invalid") === "true" && other.value.trim() !== "") check(other);
    }
  }
});
document.querySelectorAll(".entry input[type=number]").forEach(updatePreview);

// Enter in a count moves on to the next player's count (the phone's "next"
// key); only the last one saves, so a half-entered round is not sent.
document.addEventListener("keydown", (event) => {
  if (event.key !== "Enter" || !event.target.matches(".stepper input")) return;
  const fields = [...event.target.form.querySelectorAll(".stepper input:not([readonly])")];
  const next = fields[fields.indexOf(event.target) + 1];
  if (next) {
    event.preventDefault();
    next.focus();
  }
});
for (const form of document.querySelectorAll("form[data-entry]")) {
  const fields = form.querySelectorAll(".stepper input");
  fields[fields.length - 1]?.setAttribute("enterkeyhint", "done");
}

// Select the whole number on focus so typing replaces it.
document.addEventListener("focusin", (event) => {
  if (event.target.matches(".stepper input")) event.target.select();
});

// Focus the first message after a refused entry, so it is read out.
document.getElementById("entry-errors")?.focus();
