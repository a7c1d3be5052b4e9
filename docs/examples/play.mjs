// Plays a catalogue deal with the viewer's ES modules, under Node (v18 or later):
//
//   node docs/examples/play.mjs [--file yukon-easy.json] [--entry N | --date YYYY-MM-DD] [--greedy]
//
// The file is checked against catalogue/manifest.json (SHA-256); the entry is --entry, or the
// daily deal of --date (today, UTC, by default). Its board is dealt from its deal number; then the
// game follows the entry's stored solution (every move checked to be among the legal moves)
// or, with --greedy, the greedy hint until the game is won or the hint has no move.
// Prints each move and the result; exit status 0 when the game is won, 1 when not, 2 on bad
// input.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import {
  applyToken, boardText, isWon, legalMoves, makeRules, moveToken, parseBoard, parseToken,
} from "../../catalogue/viewer/rules.js";
import { dealBoard } from "../../catalogue/viewer/deal.js";
import { dailyPickOf, generationsBy, listingOf, manifestSchedule, tierFiles } from "../../catalogue/viewer/daily.js";
import { greedyHint, historyAfter, newHistory } from "../../catalogue/viewer/greedy.js";

const CATALOGUE = fileURLToPath(new URL("../../catalogue/", import.meta.url));

function option(name, fallback) {
  const at = process.argv.indexOf(name);
  return at < 0 ? fallback : process.argv[at + 1];
}

function fail(message) {
  console.error(`play.mjs: ${message}`);
  process.exit(2);
}

const manifest = JSON.parse(readFileSync(`${CATALOGUE}manifest.json`, "utf8"));

// The catalogue file `name`, only if its SHA-256 is the manifest's.
function checkedCatalogue(name) {
  const record = manifest.files.find((each) => each.file === name);
  if (!record) fail(`${name} is not listed in manifest.json`);
  const bytes = readFileSync(`${CATALOGUE}${name}`);
  if (createHash("sha256").update(bytes).digest("hex") !== record.sha256) fail(`${name}: checksum does not match manifest.json`);
  return JSON.parse(bytes.toString("utf8"));
}

// [file name, entry index]: --entry of --file, or the daily deal of --date among the files of
// --file's rule set and tier (a later generation's file serves the epochs of its generation).
async function chosenEntry(name) {
  const entry = option("--entry");
  if (entry !== undefined) {
    const { entries } = checkedCatalogue(name);
    if (!/^\d+$/.test(entry) || Number(entry) >= entries.length) fail(`--entry ${entry}: ${name} has entries 0 to ${entries.length - 1}`);
    return [name, Number(entry)];
  }
  checkedCatalogue(name);
  const day = option("--date", new Date().toISOString().slice(0, 10));
  const schedule = manifestSchedule(manifest);
  const generations = generationsBy(schedule, day);
  const listings = new Map([...tierFiles(manifest, name)].filter(([generation]) => generations.has(generation))
    .map(([generation, file]) => [generation, listingOf(checkedCatalogue(file), file)]));
  const pick = await dailyPickOf(listings, schedule, day);
  if (!pick) fail(`${name} has no daily deal on ${day}`);
  console.log(`the daily deal of ${day}`);
  return [pick.file, pick.index];
}

// The stored line's tokens, or the greedy hint's, one at a time.
function* followed(entry, rules, greedy, game) {
  if (!greedy) {
    yield* entry.solution.split(" ");
    return;
  }
  while (game.moves < 1000) {
    const hint = greedyHint(game.board, rules, 0, game.history);
    if (!hint.move) {
      if (hint.status !== "won") console.log(`the hint stops: ${hint.reason}`);
      return;
    }
    yield hint.move;
  }
}

const [name, index] = await chosenEntry(option("--file", "yukon-easy.json"));
const catalogue = checkedCatalogue(name);
const entry = catalogue.entries[index];
const rules = makeRules(entry.variant, entry.foundation_return === true);
const board = dealBoard(entry.variant, entry.deal, entry.numbering || catalogue.numbering || "pysol");
if (boardText(board) !== boardText(parseBoard(entry.board))) fail(`entry ${index}: its board is not deal ${entry.deal}`);
console.log(`${name} entry ${index}: ${entry.variant} deal ${entry.deal}`);

const game = { board, history: newHistory(), moves: 0, line: [] };
for (const token of followed(entry, rules, process.argv.includes("--greedy"), game)) {
  const legal = legalMoves(game.board, rules).map((move) => moveToken(game.board, move));
  if (!legal.includes(token)) fail(`move ${game.moves + 1} ${token} is not legal here`);
  game.history = historyAfter(game.history, game.board, parseToken(game.board, token));
  game.board = applyToken(game.board, token, rules);
  game.moves += 1;
  game.line.push(token);
}
console.log(`line: ${game.line.join(" ")}`);
console.log(isWon(game.board) ? `won in ${game.moves} moves` : `not won after ${game.moves} moves`);
process.exit(isWon(game.board) ? 0 : 1);
