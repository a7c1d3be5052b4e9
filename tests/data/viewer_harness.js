// Test harness for tests/test_viewer.py: runs the TEST the page defines and writes the JSON
// result into <pre id="result">, then sets the title to "done". Two kinds of test:
//   {kind: "vectors", picks: [{catalogue or url, file, schedule, date}]}: daily.js's picks;
//   {kind: "play", page, actions: [...]}: the viewer in an iframe, driven by clicks and keys.
// A play action is {move: token} (made by clicking the card, then the destination),
// {keys: ["1", "4"]}, {click: "#undo"} or {snapshot: name} (the page's <main> HTML and state).
"use strict";

function finish(result) {
  document.getElementById("result").textContent = JSON.stringify(result);
  document.title = "done";
}

// Each pick's catalogue is given, or fetched from its `url` (once).
async function runVectors(test) {
  const fetched = new Map();
  const picks = [];
  for (const each of test.picks) {
    if (each.url && !fetched.has(each.url)) fetched.set(each.url, await (await fetch(each.url)).json());
    picks.push(await dailyPick(each.catalogue || fetched.get(each.url), each.file, each.schedule, each.date));
  }
  return picks;
}

function waitFor(check) {
  return new Promise((resolve) => {
    const poll = () => (check() ? resolve() : setTimeout(poll, 20));
    poll();
  });
}

function click(element) {
  if (!element) throw new Error("nothing to click");
  element.dispatchEvent(new MouseEvent("click", { bubbles: true }));
}

// The clicks that make `token`: the card (or the stock, or a foundation slot), then the destination.
function clickMove(doc, token) {
  if (token === "S") return click(doc.getElementById("stock"));
  const [, source, target, card, size] = /^(\d+|F)>(\d+|F):(\w\w)(?:\/(\d+))?$/.exec(token);
  if (source === "F") click(doc.querySelector(`.slot .card[data-card="${card}"]`).parentElement);
  else {
    const cards = Array.from(doc.querySelectorAll(`.column[data-column="${source - 1}"] .card`));
    click(size ? cards[cards.length - size] : cards.filter((each) => each.dataset.card === card && each.classList.contains("up"))[0]);
  }
  click(target === "F" ? doc.getElementById("foundations") : doc.querySelector(`.column[data-column="${target - 1}"]`));
}

function snapshot(frame) {
  const doc = frame.contentDocument;
  const columns = Array.from(doc.querySelectorAll(".column"), (column) => {
    const box = column.getBoundingClientRect();
    return { left: box.left, right: box.right };
  });
  return {
    main: doc.querySelector("main").outerHTML,
    status: doc.getElementById("status").textContent,
    message: doc.getElementById("message").textContent,
    won: doc.body.dataset.won || "",
    error: doc.body.dataset.error || "",
    moves: Number(doc.getElementById("moves").dataset.moves),
    columns,
    viewport: frame.contentWindow.innerWidth,
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
    if (action.move) clickMove(doc, action.move);
    else if (action.keys) action.keys.forEach((key) => doc.dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true })));
    else if (action.click) click(doc.querySelector(action.click));
    else if (action.snapshot) snapshots[action.snapshot] = snapshot(frame);
  }
  return snapshots;
}

(test.kind === "vectors" ? runVectors(test) : runPlay(test))
  .then(finish)
  .catch((error) => finish({ error: `${error.message}\n${error.stack}` }));
