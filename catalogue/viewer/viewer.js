// The page: read the manifest, load a catalogue file only when its SHA-256 is the manifest's,
// play an entry with clicks and keys (legal moves only, the moved cards highlighted, undo),
// step through its stored solution, and show the daily deal of a date. URL parameters:
// manifest (default ../manifest.json), file (a name the manifest lists), entry, step (open the
// solution at that move), date. Uses rules.js, daily.js and play.js; no network beyond the
// page's own site.
"use strict";

const view = { manifest: null, schedule: null, readFile: null, file: "", catalogue: null,
  entry: null, game: null, selected: null, solution: null, step: 0 };
const $ = (id) => document.getElementById(id);

function say(text) { $("status").textContent = text; }

function cardElement(card, faceUp) {
  const element = document.createElement("span");
  element.className = `card ${faceUp ? "up" : "down"}${faceUp && isRed(card) ? " red" : ""}`;
  element.dataset.card = card;
  element.textContent = faceUp ? card.replace("T", "10").replace(/[SHDC]$/, (s) => "♠♥♦♣"["SHDC".indexOf(s)]) : "";
  element.title = faceUp ? card : "face down";
  return element;
}

function columnElement(board, cards, column, moved) {
  const element = document.createElement("div");
  element.className = "column";
  element.dataset.column = column;
  cards.forEach((card, index) => {
    const shown = cardElement(card, index >= board.down[column]);
    shown.dataset.index = index;
    if (index >= cards.length - moved.columns[column]) shown.classList.add("moved");
    const chosen = view.selected;
    if (chosen && chosen.column === column && chosen.start !== null && index >= chosen.start) shown.classList.add("selected");
    element.append(shown);
  });
  if (view.selected && view.selected.column === column && view.selected.start === null) element.classList.add("selected");
  return element;
}

function slotElement(height, slot, moved) {
  const element = document.createElement("div");
  element.className = `slot${moved.slots[slot] ? " moved" : ""}${view.selected && view.selected.slot === slot ? " selected" : ""}`;
  element.dataset.slot = slot;
  element.dataset.suit = SUITS[slot % 4];
  element.dataset.height = height;
  element.append(height ? cardElement(RANKS[height - 1] + SUITS[slot % 4], true) : "♠♥♦♣"[slot % 4]);
  return element;
}

function drawBoard(board, moved) {
  const tableau = $("tableau");
  tableau.style.setProperty("--columns", board.columns.length);
  tableau.replaceChildren(...board.columns.map((cards, column) => columnElement(board, cards, column, moved)));
  $("foundations").replaceChildren(...board.foundations.map((height, slot) => slotElement(height, slot, moved)));
  const stock = $("stock");
  stock.dataset.cards = board.stock.join(" ");
  stock.replaceChildren(...(board.stock.length ? [cardElement(board.stock[0], false), ` stock: ${board.stock.length}`] : []));
}

const NOTHING_MOVED = { columns: [], slots: [] };

function drawGame() {
  const { game } = view;
  const board = currentBoard(game);
  const last = game.boards.length - 1;
  drawBoard(board, last ? movedCards(game.boards[last - 1], board) : NOTHING_MOVED);
  $("moves").dataset.moves = game.tokens.length;
  $("moves").textContent = `${game.tokens.length} moves${game.tokens.length ? ` (last ${game.tokens[last - 1]})` : ""}`;
  document.body.dataset.won = isWon(board) ? "yes" : "no";
  if (isWon(board)) $("message").textContent = `won in ${game.tokens.length} moves`;
}

// After a move or a refusal: no selection, `message` shown, the board drawn again.
function endMove(message) {
  view.selected = null;
  $("message").textContent = message;
  drawGame();
}

function tryMove(token) {
  try {
    play(view.game, token, view.entry.variant, view.entry.foundation_return === true);
    endMove("");
  } catch (error) {
    endMove(`${token} refused: ${error.message}`);
  }
}

function selectOrMove(column, start) {
  const chosen = view.selected;
  if (chosen && chosen.slot !== undefined) return tryMove(returnToken(currentBoard(view.game), chosen.slot, column));
  if (chosen && chosen.column !== column) {
    const board = currentBoard(view.game);
    const from = chosen.start ?? keyboardStart(board, chosen.column, column, view.entry.variant);
    if (from < 0) return endMove(`no packet of column ${chosen.column + 1} fits column ${column + 1}`);
    return tryMove(packetToken(board, chosen.column, from, column));
  }
  view.selected = chosen && chosen.start === start ? null : start === undefined ? null : { column, start };
  drawGame();
}

function toFoundations(slot) {
  const chosen = view.selected;
  if (chosen && chosen.column !== undefined) {
    const cards = currentBoard(view.game).columns[chosen.column];
    const card = chosen.start === null ? cards.at(-1) : cards[chosen.start];
    return card ? tryMove(`${chosen.column + 1}>F:${card}`) : endMove(`column ${chosen.column + 1} is empty`);
  }
  if (slot !== undefined && currentBoard(view.game).foundations[slot]) view.selected = { slot };
  drawGame();
}

function onBoardClick(event) {
  if (!view.game || !$("steps").hidden) return;
  const card = event.target.closest(".card");
  const column = event.target.closest(".column");
  if (column) {
    const faceUp = card && card.classList.contains("up");
    selectOrMove(Number(column.dataset.column), faceUp ? Number(card.dataset.index) : undefined);
  } else if (event.target.closest("#foundations")) {
    const slot = event.target.closest(".slot");
    toFoundations(slot ? Number(slot.dataset.slot) : undefined);
  } else if (event.target.closest("#stock")) tryMove("S");
}

function onKey(event) {
  if (!view.game || !$("steps").hidden || (event.target instanceof Element && event.target.matches("input, select"))) return;
  const key = event.key.toLowerCase();
  const column = Number(key) - 1;
  if (column >= 0 && column < currentBoard(view.game).columns.length) {
    if (view.selected && view.selected.column === column) { view.selected = null; drawGame(); }
    else if (view.selected) selectOrMove(column);
    else { view.selected = { column, start: null }; drawGame(); }
  } else if (key === "f") toFoundations();
  else if (key === "s") tryMove("S");
  else if (key === "u" || key === "backspace" || (key === "z" && (event.ctrlKey || event.metaKey))) undoMove();
  else if (key === "escape") { view.selected = null; drawGame(); }
  else return;
  event.preventDefault();
}

function undoMove() {
  undo(view.game);
  view.selected = null;
  $("message").textContent = "";
  drawGame();
}

// The stored line, replayed once: the boards after each move and what each move changed.
function replaySolution(entry) {
  const tokens = entry.solution.split(/\s+/).filter(Boolean);
  const boards = [parseBoard(entry.board)];
  for (const token of tokens) boards.push(applyToken(boards[boards.length - 1], token, entry.variant));
  return { tokens, boards };
}

function showStep(step) {
  const { tokens, boards } = view.solution;
  view.step = Math.max(0, Math.min(step, tokens.length));
  drawBoard(boards[view.step], view.step ? movedCards(boards[view.step - 1], boards[view.step]) : NOTHING_MOVED);
  $("step").dataset.step = view.step;
  $("step").textContent = `move ${view.step} of ${tokens.length}`;
  $("move").textContent = view.step ? `last: ${tokens[view.step - 1]}` : "";
}

function showSolution(shown, step) {
  $("steps").hidden = !shown;
  $("play").hidden = shown;
  if (shown) showStep(step);
  else drawGame();
}

function selectEntry(index, step) {
  const entry = view.catalogue.entries[index];
  view.entry = entry;
  view.game = newGame(parseBoard(entry.board));
  view.selected = null;
  $("message").textContent = "";
  $("entry").value = String(index);
  try {
    view.solution = replaySolution(entry);
    say(`${entry.variant} ${entry.numbering} deal ${entry.deal}, ${entry.tier} (score ${entry.score}), ` +
      `stored line ${entry.length} moves${entry.foundation_return ? ", foundation return" : ""}`);
  } catch (error) {
    view.solution = { tokens: [], boards: [view.game.boards[0]] };
    say(`${view.file} entry ${index}: its stored line does not replay: ${error.message}`);
  }
  showSolution(step !== null, step || 0);
}

// The entry a ?entry= text names, or a message saying why it names none.
function entryNumber(text, entries) {
  if (/^\d+$/.test(text) && Number(text) < entries.length) return Number(text);
  return `?entry=${text}: ${view.file} has no such entry (its entries are 0 to ${entries.length - 1})`;
}

async function showDaily(iso) {
  const daily = $("daily");
  daily.dataset.date = iso;
  let pick = null;
  try {
    pick = await dailyPick(view.catalogue, view.file, view.schedule, iso);
  } catch (error) {
    daily.textContent = `no daily deal: ${error.message}`;
    return null;
  }
  const { entries, variant, tier } = view.catalogue;
  daily.dataset.entry = pick ? pick.index : "";
  daily.dataset.deal = pick ? entries[pick.index].deal : "";
  daily.textContent = pick
    ? `${iso}: ${variant} ${tier} deal ${entries[pick.index].deal} (entry ${pick.index}, ` +
      `cycle ${pick.cycle} from ${pick.epoch}, day ${pick.day + 1} of ${pick.poolSize})`
    : `no ${variant} ${tier} deal on ${iso}`;
  return pick;
}

async function sha256Hex(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

// The catalogue file `name`, read and parsed only if its SHA-256 is the manifest's.
async function checkedCatalogue(name) {
  const record = view.manifest.files.find((each) => each.file === name);
  if (!record) throw new Error(`${name} is not listed in manifest.json`);
  const bytes = await view.readFile(name);
  if (await sha256Hex(bytes) !== record.sha256) throw new Error(`${name}: checksum does not match manifest.json; not used`);
  return JSON.parse(new TextDecoder().decode(bytes));
}

async function openFile(name, params) {
  document.body.dataset.ready = "no";
  view.file = name;
  $("file").value = name;
  try {
    view.catalogue = await checkedCatalogue(name);
  } catch (error) {
    view.catalogue = null;
    say(error.message);
    document.body.dataset.error = "file";
    return;
  }
  const { entries } = view.catalogue;
  $("entry").replaceChildren(...entries.map((entry, index) => new Option(`${index}: deal ${entry.deal}`, index)));
  const iso = params.get("date") || new Date().toLocaleDateString("en-CA");
  $("date").value = iso;
  const pick = await showDaily(iso);
  const chosen = params.has("entry") ? entryNumber(params.get("entry"), entries) : pick ? pick.index : 0;
  if (typeof chosen === "string") {
    say(chosen);
    document.body.dataset.error = "entry";
  } else selectEntry(chosen, params.has("step") ? Number(params.get("step")) || 0 : null);
  document.body.dataset.ready = "yes";
}

async function openManifest(manifest, readFile, params) {
  if (manifest.format !== "yukon-catalogue-manifest" || !Array.isArray(manifest.files)) throw new Error("not a catalogue manifest");
  view.manifest = manifest;
  view.schedule = manifestSchedule(manifest);
  view.readFile = readFile;
  $("file").replaceChildren(...manifest.files.map((record) => new Option(`${record.variant} ${record.tier} (${record.file})`, record.file)));
  const name = params.get("file") || manifest.files[0].file;
  await openFile(name, params);
}

async function fetchBytes(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: ${response.status} ${response.statusText}`);
  return response.arrayBuffer();
}

$("tableau").addEventListener("click", onBoardClick);
$("top").addEventListener("click", onBoardClick);
document.addEventListener("keydown", onKey);
$("undo").addEventListener("click", undoMove);
$("restart").addEventListener("click", () => selectEntry(Number($("entry").value), null));
$("solution").addEventListener("click", () => showSolution(true, 0));
$("resume").addEventListener("click", () => showSolution(false));
$("first").addEventListener("click", () => showStep(0));
$("back").addEventListener("click", () => showStep(view.step - 1));
$("forward").addEventListener("click", () => showStep(view.step + 1));
$("last").addEventListener("click", () => showStep(view.solution.tokens.length));
$("entry").addEventListener("change", (event) => selectEntry(Number(event.target.value), null));
$("file").addEventListener("change", (event) => openFile(event.target.value, new URLSearchParams()));
$("date").addEventListener("change", async (event) => {
  const pick = event.target.value && await showDaily(event.target.value);
  if (pick) selectEntry(pick.index, null);
});
$("local").addEventListener("change", async (event) => {
  const files = new Map(Array.from(event.target.files, (file) => [file.name, file]));
  const read = async (name) => {
    if (!files.has(name)) throw new Error(`${name}: choose it together with manifest.json`);
    return files.get(name).arrayBuffer();
  };
  try {
    const manifest = JSON.parse(new TextDecoder().decode(await read("manifest.json")));
    await openManifest(manifest, read, new URLSearchParams());
  } catch (error) { say(`cannot use the chosen files: ${error.message}`); }
});

const params = new URLSearchParams(location.search);
const manifestUrl = new URL(params.get("manifest") || "../manifest.json", location.href);
fetchBytes(manifestUrl)
  .then((bytes) => openManifest(JSON.parse(new TextDecoder().decode(bytes)), (name) => fetchBytes(new URL(name, manifestUrl)), params))
  .catch((error) => say(`cannot load ${manifestUrl.pathname}: ${error.message} (choose manifest.json and a catalogue file)`));
