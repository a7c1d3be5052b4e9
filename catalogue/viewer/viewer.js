// The page: load a catalogue (file input or ?catalogue=URL), draw an entry's board, step
// through its solution, and show the daily deal for a date. URL parameters: catalogue, entry,
// step, date. Uses rules.js and daily.js; no network beyond the page's own folder.
"use strict";

const view = { catalogue: null, entry: 0, boards: [], tokens: [], step: 0 };
const $ = (id) => document.getElementById(id);

function cardElement(card, faceUp) {
  const element = document.createElement("span");
  element.className = `card ${faceUp ? "up" : "down"}${faceUp && isRed(card) ? " red" : ""}`;
  element.dataset.card = card;
  element.textContent = faceUp ? card.replace("T", "10").replace(/[SHDC]$/, (s) => "♠♥♦♣"["SHDC".indexOf(s)]) : "";
  element.title = faceUp ? card : "face down";
  return element;
}

function drawBoard(board) {
  const tableau = $("tableau");
  tableau.replaceChildren(...board.columns.map((cards, column) => {
    const element = document.createElement("div");
    element.className = "column";
    element.dataset.column = column;
    cards.forEach((card, index) => element.append(cardElement(card, index >= board.down[column])));
    return element;
  }));
  $("foundations").replaceChildren(...board.foundations.map((height, slot) => {
    const element = document.createElement("div");
    element.className = "slot";
    element.dataset.slot = slot;
    element.dataset.suit = SUITS[slot % 4];
    element.dataset.height = height;
    element.append(height ? cardElement(RANKS[height - 1] + SUITS[slot % 4], true) : "♠♥♦♣"[slot % 4]);
    return element;
  }));
  const stock = $("stock");
  stock.dataset.cards = board.stock.join(" ");
  stock.replaceChildren(...(board.stock.length ? [cardElement(board.stock[0], false), ` stock: ${board.stock.length}`] : []));
}

function show(step) {
  view.step = Math.max(0, Math.min(step, view.tokens.length));
  drawBoard(view.boards[view.step]);
  const label = $("step");
  label.dataset.step = view.step;
  label.textContent = `move ${view.step} of ${view.tokens.length}`;
  $("move").textContent = view.step ? `last: ${view.tokens[view.step - 1]}` : "";
}

function selectEntry(index, step) {
  const entry = view.catalogue.entries[index];
  view.entry = index;
  view.tokens = entry.solution.split(/\s+/).filter(Boolean);
  view.boards = [parseBoard(entry.board)];
  try {
    for (const token of view.tokens) view.boards.push(applyToken(view.boards[view.boards.length - 1], token, entry.variant));
    $("status").textContent = `${entry.variant} ${entry.numbering} deal ${entry.deal}, ${entry.tier} (score ${entry.score}), ${entry.length} moves`;
  } catch (error) {
    $("status").textContent = `entry ${index}: move ${view.boards.length} ${view.tokens[view.boards.length - 1]}: ${error.message}`;
    view.tokens = view.tokens.slice(0, view.boards.length - 1);
  }
  $("entry").value = String(index);
  show(step);
}

function showDaily(iso) {
  const { entries, variant, tier } = view.catalogue;
  const pick = dailyPick(entries, variant, tier, iso);
  const daily = $("daily");
  daily.dataset.date = iso;
  if (!pick) { daily.dataset.entry = ""; daily.textContent = `no ${variant} ${tier} deal on ${iso}`; return null; }
  daily.dataset.entry = pick.index;
  daily.dataset.deal = entries[pick.index].deal;
  daily.textContent = `${iso}: ${variant} ${tier} deal ${entries[pick.index].deal} (entry ${pick.index}, cycle ${pick.cycle}, day ${pick.day + 1} of ${pick.poolSize})`;
  return pick;
}

function load(catalogue, params) {
  view.catalogue = catalogue;
  $("entry").replaceChildren(...catalogue.entries.map((entry, index) => new Option(`${index}: deal ${entry.deal}`, index)));
  const iso = params.get("date") || new Date().toLocaleDateString("en-CA");
  $("date").value = iso;
  const pick = showDaily(iso);
  const entry = params.has("entry") ? Number(params.get("entry")) : pick ? pick.index : 0;
  selectEntry(entry, Number(params.get("step") || 0));
  document.body.dataset.ready = "yes";
}

$("file").addEventListener("change", async (event) => {
  const file = event.target.files[0];
  if (file) load(JSON.parse(await file.text()), new URLSearchParams());
});
$("entry").addEventListener("change", (event) => selectEntry(Number(event.target.value), 0));
$("date").addEventListener("change", (event) => {
  const pick = event.target.value && showDaily(event.target.value);
  if (pick) selectEntry(pick.index, 0);
});
$("first").addEventListener("click", () => show(0));
$("back").addEventListener("click", () => show(view.step - 1));
$("forward").addEventListener("click", () => show(view.step + 1));
$("last").addEventListener("click", () => show(view.tokens.length));

const params = new URLSearchParams(location.search);
if (params.has("catalogue")) {
  fetch(params.get("catalogue"))
    .then((response) => response.json())
    .then((catalogue) => load(catalogue, params))
    .catch((error) => { $("status").textContent = `cannot load ${params.get("catalogue")}: ${error.message}`; });
}
