// The greedy player and its hint, as solver/engine/greedy_play.py and solver/player/greedy.py
// play them (an ES module for the page and for Node). It decides from what a player sees
// (rules.viewOf: no face-down or stock card), so the same view always gets the same move.
//
// Scores (the highest wins; ties drawn by a seeded splitmix64; below 0 never played):
// a safe foundation move 5000; a move that turns a face-down card 3000 + 10 x the column's
// face-down cards; another foundation move 1000; a packet move exposing a card a foundation
// takes 900; emptying a column 800 when a King lies face up on another card, else 40; a King-led
// packet into an empty column off a face-up card 600; a packet onto a new parent 100 + 10 x
// face-down cards - cards between, at least 60; a stock deal 50; a packet off a card it
// builds on 10; a King leading a whole column, or undoing the previous move: never.

import {
  STOCK_DEAL, TABLEAU, TO_FOUNDATION, applyMove, asRules, boardText, buildsOn, foundationSlotFor, hiddenCount,
  isRed, isWon, legalMoves, moveToken, parseToken, rankOf, suitOf, viewOf,
} from "./rules.js";

const NEVER = -1;
const STALL_LIMIT = 50;
export const GAME_MOVES = 1000;
const MASK64 = (1n << 64n) - 1n;
const GOLDEN_GAMMA = 0x9e3779b97f4a7c15n;

// splitmix64 over a one-word state {value: BigInt}.
function nextRandom(rng) {
  rng.value = (rng.value + GOLDEN_GAMMA) & MASK64;
  let value = rng.value;
  value = ((value ^ (value >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK64;
  value = ((value ^ (value >> 27n)) * 0x94d049bb133111ebn) & MASK64;
  return value ^ (value >> 31n);
}

function makeRandom(seed) { return { value: BigInt(seed) & MASK64 }; }

// Are all cards that could build on `card` already on the foundations?
function landersAllHome(view, card, rules) {
  const needed = rankOf(card) - 1;
  const sameSuit = asRules(rules).variant === "russian";
  return view.foundations.every((height, slot) => {
    const lands = sameSuit ? slot % 4 === suitOf(card) : (slot % 4 === 1 || slot % 4 === 2) !== isRed(card);
    return !lands || height >= needed;
  });
}

function kingWaiting(view, skip) {
  return view.columns.some((cards, column) => column !== skip
    && cards.some((card, index) => index >= Math.max(view.down[column], 1) && rankOf(card) === 13));
}

export function undoes(move, previous) {
  return Boolean(previous) && previous.kind === TABLEAU && move.kind === TABLEAU && previous.card === move.card
    && previous.source === move.target && previous.target === move.source;
}

// The greedy score of a legal move of `view` (see the top of this file).
export function score(view, move, rules, previous = null) {
  if (move.kind === STOCK_DEAL) return 50;
  const length = view.columns[move.source].length;
  const faceDown = view.down[move.source];
  if (move.kind === TO_FOUNDATION) {
    if (landersAllHome(view, move.card, rules)) return 5000;
    return length - 1 === faceDown && faceDown > 0 ? 3000 + 10 * faceDown : 1000;
  }
  if (undoes(move, previous)) return NEVER;
  const index = length - move.size;
  const king = rankOf(move.card) === 13;
  if (index === faceDown) {
    if (faceDown > 0) return 3000 + 10 * faceDown;
    if (king) return NEVER;
    return kingWaiting(view, move.source) ? 800 : 40;
  }
  const beneath = view.columns[move.source][index - 1];
  if (foundationSlotFor(view, beneath) >= 0) return 900;
  if (king) return 600;
  if (buildsOn(move.card, beneath, rules)) return 10;
  return Math.max(60, 100 + 10 * faceDown - (index - faceDown));
}

// The moves the greedy player considers (every legal move but foundation return), in
// generation order, each with its score.
export function scoredMoves(view, rules, previous = null) {
  const plain = { ...asRules(rules), foundationReturn: false };
  return legalMoves(view, plain).map((move) => ({ move, score: score(view, move, rules, previous) }));
}

// The greedy move of a view, or null; ties go to a move drawn by `rng`.
function choose(view, rules, previous, rng) {
  let best = NEVER;
  let chosen = null;
  let ties = 0;
  for (const { move, score: value } of scoredMoves(view, rules, previous)) {
    if (value > best) { best = value; chosen = move; ties = 1; }
    else if (value === best && best > NEVER) {
      ties += 1;
      if (nextRandom(rng) % BigInt(ties) === 0n) chosen = move;
    }
  }
  return chosen;
}

function progress(board) {
  return board.foundations.reduce((sum, height) => sum + height, 0) - hiddenCount(board);
}

// A whole greedy game from a true board, as Greedy.play in Python: until won, no move scores
// 0 or more, `maxMoves` moves, or 50 moves in a row that neither turn a card, fill a
// foundation nor deal. Returns {won, tokens, board}.
export function greedyGame(board, rules, seed = 0, maxMoves = GAME_MOVES) {
  const rng = makeRandom(seed);
  const tokens = [];
  let previous = null;
  let stalled = 0;
  while (tokens.length < maxMoves && stalled < STALL_LIMIT && !isWon(board)) {
    const move = choose(viewOf(board), rules, previous, rng);
    if (!move) break;
    const before = progress(board);
    tokens.push(moveToken(board, move));
    board = applyMove(board, move, { ...asRules(rules), foundationReturn: false });
    stalled = progress(board) > before ? 0 : stalled + 1;
    previous = move;
  }
  return { won: isWon(board), tokens, board };
}

// The game so far as a player remembers it: the views seen before each move, the last move.
export function newHistory() { return { seen: new Set(), last: null }; }

function viewKey(view) { return boardText(view); }

// The history once `move` has been played from `board`.
export function historyAfter(history, board, move) {
  return { seen: new Set([...history.seen, viewKey(viewOf(board))]), last: move };
}

// The history of `tokens` played from `board`, and the board they lead to.
export function playedFrom(board, tokens, rules) {
  let history = newHistory();
  for (const token of tokens) {
    const move = parseToken(board, token);
    const after = applyMove(board, move, rules);
    history = historyAfter(history, board, move);
    board = after;
  }
  return { board, history };
}

// `moves` but those that undo the last move or lead back to a view seen (a move that shows a
// hidden card leads somewhere new).
function fresh(view, moves, history, rules) {
  if (!history.seen.size && !history.last) return moves;
  return moves.filter((move) => {
    if (undoes(move, history.last)) return false;
    const after = applyMove(view, move, { ...asRules(rules), foundationReturn: false });
    return hiddenCount(after) < hiddenCount(view) || !history.seen.has(viewKey(after));
  });
}

// The greedy hint for `board` (only what a player sees of it is read) after the game
// `history`: {status: "move" | "won" | "lost" | "stuck", move: token or null, reason}, as
// `yukon hint --policy greedy` decides it.
export function greedyHint(board, rules, seed = 0, history = newHistory()) {
  const view = viewOf(board);
  if (isWon(view)) return { status: "won", move: null, reason: "the position is won: every card is on its foundation" };
  if (!legalMoves(view, rules).length) return { status: "lost", move: null, reason: "no legal move remains: the game is lost" };
  let move = choose(view, rules, null, makeRandom(seed));
  if (move && !fresh(view, [move], history, rules).length) {
    const worth = scoredMoves(view, rules).filter((each) => each.score >= 0)
      .sort((a, b) => b.score - a.score).map((each) => each.move);
    move = fresh(view, worth, history, rules)[0] || null;
    if (!move) {
      return { status: "stuck", move: null, reason: "every move worth playing undoes the last move or returns to a position already seen" };
    }
  }
  if (!move) return { status: "stuck", move: null, reason: "no move is worth playing (every legal move undoes progress)" };
  return { status: "move", move: moveToken(view, move), reason: "" };
}
