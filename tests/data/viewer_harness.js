// Test harness for tests/test_viewer.py (an ES module): runs the TEST the page defines and
// writes the JSON result into <pre id="result">, then sets the title to "done". Two kinds:
//   {kind: "vectors", picks: [{files: [[generation, name]] or catalogue and file, schedule,
//   date}]}: daily.js's picks among a tier's files;
//   {kind: "play", page, actions: [...]}: the viewer in an iframe, driven by pointer and keys.
// A play action is {move: token} (the card dragged onto its destination; "S" clicks the
// stock), {tap: "3:TS"} (a press and release on face-up TS of column 3), {keys: ["1", "4"]},
// {click: "#undo"} or {snapshot: name} (the page's <main> HTML, its header and layout).
import { dailyPickOf, listingOf } from "./viewer/daily.js";

function finish(result) {
  document.getElementById("result").textContent = JSON.stringify(result);
  document.title = "done";
}

// Each pick's files ([generation, name] pairs, fetched once) or its catalogue are given.
async function runVectors(test) {
  const fetched = new Map();
  const picks = [];
  for (const each of test.picks) {
    const listings = new Map();
    if (each.catalogue) listings.set(1, listingOf(each.catalogue, each.file));
    for (const [generation, name] of each.files || []) {
      if (!fetched.has(name)) fetched.set(name, await (await fetch(name)).json());
      listings.set(generation, listingOf(fetched.get(name), name));
    }
    picks.push(await dailyPickOf(listings, each.schedule, each.date));
  }
  return picks;
}

function waitFor(check) {
  return new Promise((resolve) => {
    const poll = () => (check() ? resolve() : setTimeout(poll, 20));
    poll();
  });
}

function pointer(target, type, [x, y]) {
  target.dispatchEvent(new PointerEvent(type, { bubbles: true, clientX: x, clientY: y, pointerId: 1, isPrimary: true, button: 0 }));
}

// A point on the visible top strip of an element.
function grip(element) {
  if (!element) throw new Error("nothing to press");
  const box = element.getBoundingClientRect();
  return [box.left + Math.min(8, box.width / 2), box.top + 4];
}

function columnCards(doc, column) {
  return Array.from(doc.querySelectorAll(`.column[data-column="${column - 1}"] .card`));
}

// The face-up card a token names (size: counted from the column's end).
function faceUpCard(doc, column, card, size) {
  const cards = columnCards(doc, column);
  const found = size ? cards[cards.length - size] : cards.find((each) => each.dataset.card === card);
  if (!found) throw new Error(`no face-up ${card} in column ${column}`);
  return found;
}

// Where a drop onto column `column` (or the foundations) lands: its last card, or its middle.
function dropPoint(doc, target) {
  if (target === "F") {
    const box = doc.getElementById("foundations").getBoundingClientRect();
    return [box.left + box.width / 2, box.top + box.height / 2];
  }
  const cards = columnCards(doc, target);
  if (cards.length) return grip(cards[cards.length - 1]);
  const box = doc.querySelector(`.column[data-column="${target - 1}"]`).getBoundingClientRect();
  return [box.left + box.width / 2, box.top + box.height / 2];
}

function drag(doc, element, to) {
  const from = grip(element);
  pointer(element, "pointerdown", from);
  pointer(doc, "pointermove", [from[0] + 10, from[1] + 10]);
  pointer(doc, "pointermove", to);
  pointer(doc, "pointerup", to);
}

function dragMove(doc, token) {
  if (token === "S") return doc.getElementById("stock").click();
  const [, source, target, card, size] = /^(\d+|F)>(\d+|F):(\w\w)(?:\/(\d+))?$/.exec(token);
  const element = source === "F"
    ? doc.querySelector(`.slot .card[data-card="${card}"]`)
    : faceUpCard(doc, Number(source), card, size && Number(size));
  return drag(doc, element, dropPoint(doc, target === "F" ? "F" : Number(target)));
}

function tap(doc, where) {
  const [column, card] = where.split(":");
  const element = faceUpCard(doc, Number(column), card);
  pointer(element, "pointerdown", grip(element));
  pointer(doc, "pointerup", grip(element));
}

function box(element) {
  const { left, right, top, bottom } = element.getBoundingClientRect();
  return { left, right, top, bottom };
}

function snapshot(frame) {
  const doc = frame.contentDocument;
  const text = (id) => doc.getElementById(id).textContent;
  return {
    main: doc.querySelector("main").outerHTML,
    header: doc.querySelector("header").textContent,
    title: doc.title,
    heading: doc.querySelector("h1").textContent,
    difficulty: text("difficulty"),
    daily: text("daily"),
    status: text("status"),
    message: text("message"),
    hint: doc.getElementById("message").dataset.hint || "",
    moves_text: text("moves"),
    won: doc.body.dataset.won || "",
    stuck: doc.body.dataset.stuck || "",
    error: doc.body.dataset.error || "",
    moves: Number(doc.getElementById("moves").dataset.moves),
    columns: Array.from(doc.querySelectorAll(".column"), box),
    slots: Array.from(doc.querySelectorAll(".slot"), box),
    cards: Array.from(doc.querySelectorAll(".column .card"), box),
    tableau: box(doc.getElementById("tableau")),
    viewport: frame.contentWindow.innerWidth,
    viewportHeight: frame.contentWindow.innerHeight,
    clientWidth: doc.documentElement.clientWidth,
    scrollWidth: doc.documentElement.scrollWidth,
  };
}

async function runPlay(test) {
  const frame = document.getElementById("frame");
  frame.src = test.page;
  await new Promise((resolve) => frame.addEventListener("load", resolve, { once: true }));
  await waitFor(() => frame.contentDocument.body.dataset.ready === "yes" || frame.contentDocument.body.dataset.error
    || /cannot|checksum/.test(frame.contentDocument.getElementById("status").textContent));
  const doc = frame.contentDocument;
  const snapshots = {};
  for (const action of test.actions) {
    if (action.move) dragMove(doc, action.move);
    else if (action.tap) tap(doc, action.tap);
    else if (action.keys) action.keys.forEach((key) => doc.dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true })));
    else if (action.click) doc.querySelector(action.click).click();
    else if (action.snapshot) snapshots[action.snapshot] = snapshot(frame);
  }
  return snapshots;
}

(test.kind === "vectors" ? runVectors(test) : runPlay(test))
  .then(finish)
  .catch((error) => finish({ error: `${error.message}\n${error.stack}` }));
