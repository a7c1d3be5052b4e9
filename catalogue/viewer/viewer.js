// The page: read the manifest, load a catalogue file only when its SHA-256 is the manifest's,
// deal an entry from its deal number (a hidden card is never in the DOM: it is drawn only once
// it turns face up), play it by taps (a card goes to its best place), drags and keys, with a
// greedy hint, undo, the automatic finish once every card is face up and a notice when no
// move is left; step through its stored solution; show the daily deal of a date. URL
// parameters: manifest (default ../manifest.json), file (a name the manifest lists), entry,
// step (open the solution at that move), date. No network beyond the page's own site.

import {
  HIDDEN, RANKS, SUITS, TABLEAU, applyToken, boardText, isRed, isWon, legalMoves, makeRules, moveToken, parseBoard,
  parseToken,
} from "./rules.js";
import { dealBoard } from "./deal.js";
import { dailyPickOf, generationsBy, listingOf, manifestSchedule, tierFiles } from "./daily.js";
import { greedyHint } from "./greedy.js";
import {
  bestPlace, cardName, counted, currentBoard, currentHistory, dealName, difficultyWords, finishingTokens,
  moveWords, movedCards, newGame, play, ruleSetName, undo,
} from "./play.js";

const view = { manifest: null, schedule: null, readFile: null, file: "", catalogue: null, entry: null, index: 0,
  rules: null, game: null, selected: null, solution: null, step: 0, hint: null, daily: null, loaded: new Map() };
const $ = (id) => document.getElementById(id);
const NOTHING_MOVED = { columns: [], slots: [] };
const DRAG_START = 6; // pixels a pointer moves before a press becomes a drag

function say(text) { $("status").textContent = text; }

// A face-up card shows its rank and suit; a face-down one is a bare back, with nothing of its face.
function cardElement(card) {
  const element = document.createElement("div");
  if (card === HIDDEN) {
    element.className = "card down";
    element.title = "face down";
    return element;
  }
  element.className = `card up${isRed(card) ? " red" : ""}`;
  element.dataset.card = card;
  element.title = cardName(card);
  const corner = document.createElement("span");
  corner.className = "corner";
  corner.textContent = cardName(card);
  const pip = document.createElement("span");
  pip.className = "pip";
  pip.textContent = cardName(card).slice(-1);
  element.append(corner, pip);
  return element;
}

function columnElement(board, column, moved) {
  const element = document.createElement("div");
  element.className = "column";
  element.dataset.column = column;
  const cards = board.columns[column];
  cards.forEach((card, index) => {
    const shown = cardElement(index < board.down[column] ? HIDDEN : card);
    shown.dataset.index = index;
    if (index >= cards.length - (moved.columns[column] || 0)) shown.classList.add("moved");
    element.append(shown);
  });
  if (view.selected && view.selected.column === column) element.classList.add("selected");
  return element;
}

function slotElement(height, slot, moved) {
  const element = document.createElement("div");
  element.className = `slot${moved.slots[slot] ? " moved" : ""}`;
  element.dataset.slot = slot;
  element.dataset.suit = SUITS[slot % 4];
  element.dataset.height = height;
  element.append(height ? cardElement(RANKS[height - 1] + SUITS[slot % 4]) : cardName(`A${SUITS[slot % 4]}`).slice(-1));
  return element;
}

// The stock as a player sees it: a card back and how many cards are left, never their faces.
function stockElements(board) {
  if (!board.stock.length) return [];
  const back = cardElement(HIDDEN);
  const count = document.createElement("span");
  count.className = "count";
  count.textContent = `${board.stock.length} left`;
  back.append(count);
  return [back];
}

function drawBoard(board, moved) {
  const tableau = $("tableau");
  tableau.style.setProperty("--columns", board.columns.length);
  tableau.replaceChildren(...board.columns.map((_, column) => columnElement(board, column, moved)));
  $("foundations").style.setProperty("--slots", board.foundations.length);
  $("foundations").replaceChildren(...board.foundations.map((height, slot) => slotElement(height, slot, moved)));
  $("stock").dataset.count = board.stock.length;
  $("stock").replaceChildren(...stockElements(board));
  fitColumns();
}

// Card size from the width each column has (at most 10rem wide, a fifth of the window high),
// then every column's overlap squeezed so that it ends inside the window, its corner labels
// made smaller down to 0.7rem; the cards shrink (to 60% at most) when even that would not
// fit. A longer column than that runs below the window.
function fitColumns() {
  const tableau = $("tableau");
  const columns = Array.from(tableau.children);
  if (!columns.length) return;
  const rem = parseFloat(getComputedStyle(document.documentElement).fontSize);
  const above = tableau.getBoundingClientRect().top + window.scrollY - $("top").getBoundingClientRect().height;
  const columnWidth = columns[0].clientWidth;
  const natural = Math.min(columnWidth, 10 * rem, (window.innerHeight * 0.2) / 1.4);
  let width = natural;
  let plan = columnPlan(columns, width, above, rem);
  while (!plan.fits && width > 0.6 * natural) {
    width = Math.max(width * 0.9, 0.6 * natural);
    plan = columnPlan(columns, width, above, rem);
  }
  const root = document.documentElement.style;
  root.setProperty("--col-w", `${columnWidth}px`);
  root.setProperty("--card-w", `${width}px`);
  root.setProperty("--card-h", `${plan.height}px`);
  columns.forEach((column, at) => {
    const steps = plan.steps[at];
    column.style.setProperty("--corner", `${steps.font}px`);
    Array.from(column.children).forEach((card, index) => {
      const before = column.children[index - 1];
      card.style.marginTop = index ? `${(before.classList.contains("down") ? steps.down : steps.up) - plan.height}px` : "";
    });
  });
}

// For cards `width` wide below `above` pixels of page (the foundations' row, one card high,
// comes on top): their height, each column's steps (pixels between the tops of a face-down
// card and the next, of a face-up card and the next) and corner font size, and whether every
// column fits.
function columnPlan(columns, width, above, rem) {
  const height = Math.round(width * 1.4);
  const available = Math.max(window.innerHeight - above - 2 * height - 12, height);
  const font = Math.min(Math.max(0.7 * rem, width * 0.24), 1.4 * rem);
  const stepOf = (size) => size * 1.2 + 2;
  let fits = true;
  const steps = columns.map((column) => {
    const down = column.querySelectorAll(".card.down").length;
    const up = Math.max(column.children.length - down - 1, 0);
    const normal = { down: height * 0.12, up: Math.max(height * 0.27, stepOf(font)), font };
    const length = down * normal.down + up * normal.up;
    if (length <= available) return normal;
    const squeeze = available / length;
    const tight = { down: Math.max(normal.down * squeeze, 4), up: Math.max(normal.up * squeeze, stepOf(0.7 * rem)) };
    tight.font = Math.min(font, (tight.up - 2) / 1.2);
    if (down * tight.down + up * tight.up > available + 1) fits = false;
    return tight;
  });
  return { height, steps, fits };
}

function drawGame() {
  const { game } = view;
  const board = currentBoard(game);
  const last = game.boards.length - 1;
  drawBoard(board, last ? movedCards(game.boards[last - 1], board) : NOTHING_MOVED);
  if (view.hint) markHint(board, view.hint);
  $("moves").dataset.moves = game.tokens.length;
  $("moves").textContent = counted(game.tokens.length, "move") + (game.tokens.length ? ` (last ${game.tokens[last - 1]})` : "");
  const won = isWon(board);
  document.body.dataset.won = won ? "yes" : "no";
  document.body.dataset.stuck = !won && !legalMoves(board, view.rules).length ? "yes" : "no";
}

// Outline the packet a hint moves and where it goes.
function markHint(board, token) {
  const [from, to] = token === "S" ? ["S", ""] : token.split(":")[0].split(">");
  if (from === "S") $("stock").classList.add("hinted");
  else if (from === "F") $("foundations").classList.add("hinted");
  else {
    const { size } = parseToken(board, token);
    Array.from($("tableau").children[from - 1].children).slice(-size).forEach((card) => card.classList.add("hinted"));
  }
  if (to === "F") $("foundations").classList.add("hinted");
  else if (to) $("tableau").children[to - 1].classList.add("hinted");
}

// After a move or a refusal: no selection, no hint, `message` shown, the board drawn again.
function endMove(message) {
  view.selected = null;
  view.hint = null;
  $("message").dataset.hint = "";
  $("foundations").classList.remove("hinted");
  $("stock").classList.remove("hinted");
  drawGame();
  const board = currentBoard(view.game);
  if (isWon(board)) message = `Won in ${counted(view.game.tokens.length, "move")}!`;
  else if (document.body.dataset.stuck === "yes") message = `${message ? `${message}. ` : ""}No move left: undo or restart.`;
  $("message").textContent = message;
}

// Play `token`; once every card is face up, the cards go to the foundations as far as they will.
function tryMove(token) {
  try {
    play(view.game, token, view.rules);
  } catch (error) {
    endMove(`${token} refused: ${error.message}`);
    return false;
  }
  const finish = finishingTokens(currentBoard(view.game), view.rules);
  finish.forEach((each) => play(view.game, each, view.rules));
  endMove(finish.length ? `${counted(finish.length, "card")} went to the foundations by themselves` : "");
  return true;
}

// A tapped card (or a foundation's top, with foundation return) goes to its best place.
function tapMove(place) {
  const board = currentBoard(view.game);
  const token = bestPlace(board, view.rules, place);
  if (token) return tryMove(token);
  const card = place.slot === undefined ? board.columns[place.column][place.index] : RANKS[board.foundations[place.slot] - 1] + SUITS[place.slot % 4];
  endMove(`${cardName(card)} has nowhere to go`);
  packetElements(place).forEach((element) => element.classList.add("refused"));
  return false;
}

function showHint() {
  const found = greedyHint(currentBoard(view.game), view.rules, 0, currentHistory(view.game));
  endMove(found.move ? `Hint: ${moveWords(currentBoard(view.game), found.move)}` : found.reason);
  $("message").dataset.hint = found.move || "";
  if (found.move) {
    view.hint = found.move;
    markHint(currentBoard(view.game), found.move);
  }
}

// --- pointer: a tap or a drag ---------------------------------------------------------------

function pressedPlace(target) {
  const card = target.closest(".card.up");
  const column = target.closest(".column");
  if (card && column) return { column: Number(column.dataset.column), index: Number(card.dataset.index) };
  const slot = target.closest(".slot");
  if (card && slot) return { slot: Number(slot.dataset.slot) };
  return null;
}

function packetElements(place) {
  if (place.slot !== undefined) return [$("foundations").children[place.slot].firstChild];
  return Array.from($("tableau").children[place.column].children).slice(place.index);
}

function onPointerDown(event) {
  if (!view.game || !$("steps").hidden || event.button > 0) return;
  const place = pressedPlace(event.target);
  if (!place) return;
  event.preventDefault();
  view.press = { place, x: event.clientX, y: event.clientY, dragging: false };
}

function onPointerMove(event) {
  const press = view.press;
  if (!press) return;
  const dx = event.clientX - press.x;
  const dy = event.clientY - press.y;
  if (!press.dragging && Math.hypot(dx, dy) < DRAG_START) return;
  press.dragging = true;
  for (const card of packetElements(press.place)) {
    card.classList.add("dragging");
    card.style.transform = `translate(${dx}px, ${dy}px)`;
  }
}

function onPointerUp(event) {
  const press = view.press;
  view.press = null;
  if (!press) return;
  if (!press.dragging) return tapMove(press.place);
  const below = document.elementFromPoint(event.clientX, event.clientY);
  const token = below && droppedToken(press.place, below);
  if (token) return tryMove(token);
  return drawGame();
}

// The token of dropping the pressed packet on the element `below`, or null (dropped elsewhere).
function droppedToken(place, below) {
  const board = currentBoard(view.game);
  const column = below.closest(".column");
  if (place.slot !== undefined) {
    return column ? `F>${Number(column.dataset.column) + 1}:${RANKS[board.foundations[place.slot] - 1]}${SUITS[place.slot % 4]}` : null;
  }
  const cards = board.columns[place.column];
  const card = cards[place.index];
  if (below.closest("#foundations")) return `${place.column + 1}>F:${card}`;
  if (!column) return null;
  const move = { kind: TABLEAU, source: place.column, target: Number(column.dataset.column), card, size: cards.length - place.index };
  return moveToken(board, move);
}

// --- keys ---------------------------------------------------------------------------------

// The token moving the largest packet of column `source` that column `target` takes, or null.
function keyboardToken(board, source, target) {
  const moves = legalMoves(board, view.rules).filter((move) => move.kind === TABLEAU && move.source === source && move.target === target);
  if (!moves.length) return null;
  return moveToken(board, moves.reduce((deepest, each) => (each.size > deepest.size ? each : deepest)));
}

function onKey(event) {
  if (!view.game || !$("steps").hidden || (event.target instanceof Element && event.target.matches("input, select"))) return;
  const key = event.key.toLowerCase();
  const column = Number(key) - 1;
  const board = currentBoard(view.game);
  if (column >= 0 && column < board.columns.length) {
    const chosen = view.selected;
    if (chosen && chosen.column === column) { view.selected = null; drawGame(); }
    else if (chosen) {
      const token = keyboardToken(board, chosen.column, column);
      if (token) tryMove(token);
      else endMove(`no packet of column ${chosen.column + 1} fits column ${column + 1}`);
    } else { view.selected = { column }; drawGame(); }
  } else if (key === "f") {
    const cards = view.selected ? board.columns[view.selected.column] : [];
    if (cards.length) tryMove(`${view.selected.column + 1}>F:${cards[cards.length - 1]}`);
    else endMove("choose a column first (its number), then F");
  } else if (key === "s") tryMove("S");
  else if (key === "h") showHint();
  else if (key === "u" || key === "backspace" || (key === "z" && (event.ctrlKey || event.metaKey))) undoMove();
  else if (key === "escape") { view.selected = null; drawGame(); }
  else return;
  event.preventDefault();
}

function undoMove() {
  undo(view.game);
  endMove("");
}

// --- entries, the solution, the daily deal --------------------------------------------------

// The stored line replayed once from the dealt board: the boards after each move.
function replaySolution(board, entry) {
  const tokens = entry.solution.split(/\s+/).filter(Boolean);
  const boards = [board];
  for (const token of tokens) boards.push(applyToken(boards[boards.length - 1], token, view.rules));
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

// The opening board of an entry, dealt from its deal number (and checked against the board
// the entry states).
function dealtBoard(entry) {
  const board = dealBoard(entry.variant, entry.deal, entry.numbering || view.catalogue.numbering || "pysol");
  if (boardText(board) !== boardText(parseBoard(entry.board))) throw new Error(`its board is not ${dealName(entry)}`);
  return board;
}

function selectEntry(index, step) {
  const entry = view.catalogue.entries[index];
  view.entry = entry;
  view.index = index;
  view.rules = makeRules(entry.variant, entry.foundation_return === true);
  view.selected = null;
  view.hint = null;
  $("entry").value = String(index);
  $("rules").textContent = ruleSetName(view.rules);
  $("deal").textContent = dealName(entry);
  $("difficulty").textContent = difficultyWords(entry, view.catalogue);
  document.title = `${ruleSetName(view.rules)}, ${dealName(entry)}`;
  let board;
  try {
    board = dealtBoard(entry);
    view.solution = replaySolution(board, entry);
    say(`Entry ${index} of ${view.file}; its stored solution takes ${counted(view.solution.tokens.length, "move")}.`);
  } catch (error) {
    view.game = null;
    say(`${view.file} entry ${index}: ${error.message}`);
    document.body.dataset.error = "entry";
    drawBoard({ columns: [], down: [], foundations: [], stock: [] }, NOTHING_MOVED);
    return;
  }
  view.game = newGame(board);
  showDailyNote();
  $("steps").hidden = true;
  $("play").hidden = false;
  endMove("");
  if (step !== null) showSolution(true, step);
}

// The entry a ?entry= text names, or a message saying why it names none.
function entryNumber(text, entries) {
  if (/^\d+$/.test(text) && Number(text) < entries.length) return Number(text);
  return `?entry=${text}: ${view.file} has no such entry (its entries are 0 to ${entries.length - 1})`;
}

// The daily deal of `iso` among the files of the shown file's rule set and tier (a later
// generation's file serves the epochs of its generation).
async function findDaily(iso) {
  try {
    const generations = generationsBy(view.schedule, iso);
    const listings = new Map();
    for (const [generation, name] of tierFiles(view.manifest, view.file)) {
      if (generations.has(generation)) listings.set(generation, listingOf(await catalogueNamed(name), name));
    }
    if (!listings.size) listings.set(1, listingOf(view.catalogue, view.file));
    view.daily = { iso, pick: await dailyPickOf(listings, view.schedule, iso) };
  } catch (error) {
    view.daily = { iso, pick: null, error: error.message };
  }
  return view.daily.pick;
}

// Show the daily deal `pick` of `iso` (opening its file if it is another).
function playDaily(pick, iso) {
  if (pick.file === view.file) return selectEntry(pick.index, null);
  return openFile(pick.file, new URLSearchParams({ entry: pick.index, date: iso }));
}

// Whether the board is the daily deal of the chosen date; never another deal's number.
function showDailyNote() {
  const daily = $("daily");
  const { iso, pick, error } = view.daily || {};
  const here = pick && pick.file === view.file;
  daily.dataset.date = iso || "";
  daily.dataset.file = pick ? pick.file : "";
  daily.dataset.entry = pick ? pick.index : "";
  if (error) daily.textContent = `no daily deal: ${error}`;
  else if (!pick) daily.textContent = iso ? `no daily deal on ${iso} in this catalogue` : "";
  else if (here && pick.index === view.index) {
    daily.textContent = `the daily deal of ${iso} (day ${pick.day + 1} of ${pick.poolSize} in cycle ${pick.cycle})`;
  } else {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = `Play the daily deal of ${iso}`;
    button.addEventListener("click", () => playDaily(pick, iso));
    daily.replaceChildren(button);
  }
}

async function sha256Hex(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

// The catalogue file `name`, checked once.
async function catalogueNamed(name) {
  if (!view.loaded.has(name)) view.loaded.set(name, await checkedCatalogue(name));
  return view.loaded.get(name);
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
    view.catalogue = await catalogueNamed(name);
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
  const pick = await findDaily(iso);
  if (!params.has("entry") && pick && pick.file !== name) return playDaily(pick, iso);
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
  view.loaded = new Map();
  view.schedule = manifestSchedule(manifest);
  view.readFile = readFile;
  $("file").replaceChildren(...manifest.files.map((record) => new Option(`${record.variant} ${record.tier} (${record.file})`, record.file)));
  await openFile(params.get("file") || manifest.files[0].file, params);
}

async function fetchBytes(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: ${response.status} ${response.statusText}`);
  return response.arrayBuffer();
}

$("tableau").addEventListener("pointerdown", onPointerDown);
$("top").addEventListener("pointerdown", onPointerDown);
document.addEventListener("pointermove", onPointerMove);
document.addEventListener("pointerup", onPointerUp);
document.addEventListener("pointercancel", () => { view.press = null; if (view.game) drawGame(); });
$("stock").addEventListener("click", () => { if (view.game && $("steps").hidden) tryMove("S"); });
document.addEventListener("keydown", onKey);
window.addEventListener("resize", fitColumns);
$("hint").addEventListener("click", showHint);
$("undo").addEventListener("click", undoMove);
$("restart").addEventListener("click", () => selectEntry(view.index, null));
$("solution").addEventListener("click", () => showSolution(true, 0));
$("resume").addEventListener("click", () => showSolution(false));
$("first").addEventListener("click", () => showStep(0));
$("back").addEventListener("click", () => showStep(view.step - 1));
$("forward").addEventListener("click", () => showStep(view.step + 1));
$("last").addEventListener("click", () => showStep(view.solution.tokens.length));
$("entry").addEventListener("change", (event) => selectEntry(Number(event.target.value), null));
$("file").addEventListener("change", (event) => openFile(event.target.value, new URLSearchParams()));
$("date").addEventListener("change", async (event) => {
  const pick = event.target.value && await findDaily(event.target.value);
  if (pick) playDaily(pick, event.target.value);
  else showDailyNote();
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
