// Compares the viewer's ES modules with fixtures the Python side wrote (tests/test_js_modules.py):
//   node compare.mjs FIXTURES.json
// prints {"checked": {kind: count}, "mismatches": [...]} and exits 1 when anything differs.
import { readFileSync } from "node:fs";
import { applyToken, boardText, legalMoves, makeRules, moveToken, parseBoard } from "../../catalogue/viewer/rules.js";
import { dealBoard } from "../../catalogue/viewer/deal.js";
import { dailyPickOf, generationsBy, listingOf, manifestSchedule } from "../../catalogue/viewer/daily.js";
import { greedyGame, greedyHint, playedFrom } from "../../catalogue/viewer/greedy.js";
import { bestPlace, finishingTokens } from "../../catalogue/viewer/play.js";

const fixtures = JSON.parse(readFileSync(process.argv[2], "utf8"));
const checked = {};
const mismatches = [];

function check(kind, where, got, expected) {
  checked[kind] = (checked[kind] || 0) + 1;
  if (JSON.stringify(got) !== JSON.stringify(expected)) mismatches.push({ kind, where, got, expected });
}

function attempt(run) {
  try { return run(); } catch (error) { return `error: ${error.message}`; }
}

async function attemptAsync(run) {
  try { return await run(); } catch (error) { return `error: ${error.message}`; }
}

for (const item of fixtures.positions) {
  const rules = makeRules(item.variant, item.foundation_return);
  const board = parseBoard(item.board);
  check("board text", item.board, boardText(board), item.board);
  check("legal moves", item.board, legalMoves(board, rules).map((move) => moveToken(board, move)), item.legal);
  if (item.played) check("move applied", [item.board, item.played], attempt(() => boardText(applyToken(board, item.played, rules))), item.after);
}
for (const item of fixtures.refused) {
  const rules = makeRules(item.variant, item.foundation_return);
  check("illegal refused", [item.board, item.token], attempt(() => boardText(applyToken(parseBoard(item.board), item.token, rules))).startsWith("error:"), true);
}
for (const item of fixtures.deals) {
  check("deal", [item.variant, item.number, item.numbering], attempt(() => boardText(dealBoard(item.variant, item.number, item.numbering))), item.board);
}
for (const item of fixtures.bad_deals) {
  check("bad deal refused", [item.variant, item.number, item.numbering], attempt(() => boardText(dealBoard(item.variant, item.number, item.numbering))).startsWith("error:"), true);
}
for (const item of fixtures.hints) {
  const rules = makeRules(item.variant, item.foundation_return);
  const { board, history } = playedFrom(parseBoard(item.start), item.tokens, rules);
  const hint = greedyHint(board, rules, item.seed, history);
  check("greedy hint", [item.start, item.tokens.join(" "), item.seed], [hint.status, hint.move], [item.status, item.move]);
}
for (const item of fixtures.games) {
  const game = greedyGame(parseBoard(item.start), makeRules(item.variant), item.seed);
  check("greedy game", [item.start, item.seed], [game.won, game.tokens.join(" ")], [item.won, item.line]);
}
for (const item of fixtures.taps) {
  const place = { column: item.column, index: item.index };
  check("tapped card", [item.board, place], bestPlace(parseBoard(item.board), makeRules(item.variant, item.foundation_return), place), item.best);
}
for (const item of fixtures.finishes) {
  check("automatic finish", item.board, finishingTokens(parseBoard(item.board), makeRules(item.variant)), item.finish);
}
const schedules = new Map();
const catalogues = new Map();
const catalogueAt = (path) => {
  if (!catalogues.has(path)) catalogues.set(path, JSON.parse(readFileSync(path, "utf8")));
  return catalogues.get(path);
};
for (const item of fixtures.daily) {
  if (!schedules.has(item.manifest)) schedules.set(item.manifest, manifestSchedule(JSON.parse(readFileSync(item.manifest, "utf8"))));
  const schedule = schedules.get(item.manifest);
  for (const [iso, expected] of item.picks) {
    const generations = generationsBy(schedule, iso);
    const files = item.files.filter(([generation]) => generations.has(generation));
    const listings = new Map(files.map(([generation, path, name]) => [generation, listingOf(catalogueAt(path), name)]));
    const pick = await attemptAsync(() => dailyPickOf(listings, schedule, iso));
    const found = pick && pick.index !== undefined ? [pick.index, pick.cycle, pick.day, pick.poolSize, pick.epoch, pick.file] : pick;
    check("daily", [item.files[0][2], iso], found, expected);
  }
}
console.log(JSON.stringify({ checked, mismatches: mismatches.slice(0, 10), mismatch_count: mismatches.length }));
process.exit(mismatches.length ? 1 : 0);
