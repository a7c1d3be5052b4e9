// Playing a deal: a game (the boards after each move, the tokens made), the best place for a
// tapped card, the automatic finish, what a move changed (to highlight it), and the words a
// player reads. Pure functions of boards (see rules.js); every move goes through applyMove,
// so only legal moves are made. An ES module for the page and for Node.

import {
  FROM_FOUNDATION, TABLEAU, TO_FOUNDATION, applyMove, hiddenCount, legalMoves, moveToken, parseToken, viewOf,
} from "./rules.js";
import { historyAfter, newHistory, score } from "./greedy.js";

// A game: the boards after each move made (the opening first), the tokens made, and the
// history a hint reads (the views seen before each move, the last move).
export function newGame(board) { return { boards: [board], tokens: [], histories: [newHistory()] }; }

export function currentBoard(game) { return game.boards[game.boards.length - 1]; }

export function currentHistory(game) { return game.histories[game.histories.length - 1]; }

// Plays `token` if it is legal, or leaves the game as it was and throws.
export function play(game, token, rules) {
  const board = currentBoard(game);
  const move = parseToken(board, token);
  game.boards.push(applyMove(board, move, rules));
  game.tokens.push(token);
  game.histories.push(historyAfter(currentHistory(game), board, move));
}

export function undo(game) {
  if (game.tokens.length) { game.boards.pop(); game.tokens.pop(); game.histories.pop(); }
}

// The token of the best move of the packet led by column `column`'s card at `index` (a card a
// player tapped): the legal move of that packet (or of that card to a foundation) the greedy
// player scores highest, the first of equals; a foundation slot's top card (`slot`, with
// foundation return) goes to the first column that takes it. Null when it has nowhere to go.
export function bestPlace(board, rules, { column, index, slot }) {
  const moves = legalMoves(board, rules).filter((move) => (slot === undefined
    ? move.kind !== FROM_FOUNDATION && move.source === column && move.size === board.columns[column].length - index
      && (move.kind === TABLEAU || index === board.columns[column].length - 1)
    : move.kind === FROM_FOUNDATION && move.source === slot));
  if (!moves.length) return null;
  const view = viewOf(board);
  const rated = moves.map((move) => ({ move, value: move.kind === FROM_FOUNDATION ? 0 : score(view, move, rules) }));
  const best = rated.reduce((chosen, each) => (each.value > chosen.value ? each : chosen));
  return moveToken(board, best.move);
}

// Once every card is face up and the stock is empty: the tokens that send cards to the
// foundations, as far as they go (each one the first such move of its position).
export function finishingTokens(board, rules) {
  if (hiddenCount(board)) return [];
  const tokens = [];
  for (;;) {
    const move = legalMoves(board, rules).find((each) => each.kind === TO_FOUNDATION);
    if (!move) return tokens;
    tokens.push(moveToken(board, move));
    board = applyMove(board, move, rules);
  }
}

// What a move changed: how many cards each column gained (its top ones moved there) and
// the foundation slots whose height changed.
export function movedCards(before, after) {
  return {
    columns: after.columns.map((cards, column) => Math.max(0, cards.length - before.columns[column].length)),
    slots: after.foundations.map((height, slot) => height !== before.foundations[slot]),
  };
}

// "1 move", "2 moves".
export function counted(count, singular, plural = `${singular}s`) {
  return `${count} ${count === 1 ? singular : plural}`;
}

const VARIANT_NAMES = { yukon: "Yukon", russian: "Russian Solitaire", milligan: "Milligan Yukon" };
const NUMBERING_NAMES = { pysol: "PySolFC", ms: "PySolFC ms", kpat: "KDE Patience" };

// "Russian Solitaire with foundation return".
export function ruleSetName(rules) {
  return VARIANT_NAMES[rules.variant] + (rules.foundationReturn ? " with foundation return" : "");
}

export function dealName(entry) {
  return `deal ${entry.deal} (${NUMBERING_NAMES[entry.numbering || "pysol"] || entry.numbering} numbering)`;
}

// The entry's difficulty in words: its tier, and how the greedy player of the catalogue's
// difficulty ladder (or its first player) fared on it.
export function difficultyWords(entry, catalogue) {
  const tier = entry.tier ? entry.tier[0].toUpperCase() + entry.tier.slice(1) : "Unrated";
  const rungs = catalogue.difficulty_model?.rungs || [];
  const at = Math.max(rungs.findIndex((each) => each.name === "greedy"), 0);
  const rung = rungs[at];
  const record = entry.ladder?.[at];
  if (!rung || !Array.isArray(record) || !record[1]) return `${tier} deal`;
  const [won, games] = record;
  const how = won === games ? `won all ${counted(games, "game")}` : won ? `won ${won} of ${counted(games, "game")}` : `lost all ${counted(games, "game")}`;
  return `${tier} deal: the ${rung.name} player ${how} on it`;
}

const SUIT_SYMBOLS = { S: "♠", H: "♥", D: "♦", C: "♣" };

// "10♥" for "TH".
export function cardName(card) { return card.replace("T", "10").replace(/[SHDC]$/, (suit) => SUIT_SYMBOLS[suit]); }

// A move token in words: "10♥ (and 2 cards on it) from column 3 onto column 7".
export function moveWords(board, token) {
  if (token === "S") return "deal the stock";
  const move = parseToken(board, token);
  if (move.kind === TO_FOUNDATION) return `${cardName(move.card)} from column ${move.source + 1} to its foundation`;
  if (move.kind === FROM_FOUNDATION) return `${cardName(move.card)} from its foundation onto column ${move.target + 1}`;
  const riders = move.size > 1 ? ` (and ${counted(move.size - 1, "card")} on it)` : "";
  return `${cardName(move.card)}${riders} from column ${move.source + 1} onto column ${move.target + 1}`;
}
