// Playing a deal: the move a selection and a destination make, what a move changed (to
// highlight it), and whether the game is won. Pure functions of boards (see rules.js); every
// move still goes through applyToken, so only legal moves are made.
"use strict";

// The token moving the packet led by column `source`'s card at `start` onto column `target`
// (the packet size is named only when the card lies twice face up in the column: Milligan).
function packetToken(board, source, start, target) {
  const cards = board.columns[source];
  const card = cards[start];
  const twice = cards.slice(board.down[source]).filter((each) => each === card).length > 1;
  return `${source + 1}>${target + 1}:${card}${twice ? `/${cards.length - start}` : ""}`;
}

// The deepest face-up card of column `source` that column `target` accepts (the keyboard
// picks the packet this way), or -1.
function keyboardStart(board, source, target, variant) {
  for (let start = board.down[source]; start < board.columns[source].length; start++) {
    if (accepts(board, target, board.columns[source][start], variant)) return start;
  }
  return -1;
}

function exposedToFoundation(board, source) {
  const cards = board.columns[source];
  return cards.length ? `${source + 1}>F:${cards[cards.length - 1]}` : null;
}

function returnToken(board, slot, target) {
  return `F>${target + 1}:${RANKS[board.foundations[slot] - 1]}${SUITS[slot % 4]}`;
}

// What a move changed: how many cards each column gained (its top ones moved there) and
// the foundation slots whose height changed.
function movedCards(before, after) {
  return {
    columns: after.columns.map((cards, column) => Math.max(0, cards.length - before.columns[column].length)),
    slots: after.foundations.map((height, slot) => height !== before.foundations[slot]),
  };
}

function isWon(board) {
  return board.foundations.every((height) => height === 13);
}

// A game: the boards after each move made (the opening first) and the tokens made.
function newGame(board) { return { boards: [board], tokens: [] }; }

function currentBoard(game) { return game.boards[game.boards.length - 1]; }

// Plays `token` if it is legal (true), or leaves the game as it was and throws.
function play(game, token, variant, returns) {
  if (token.startsWith("F>") && !returns) throw new Error("no foundation return in this rule set");
  game.boards.push(applyToken(currentBoard(game), token, variant));
  game.tokens.push(token);
}

function undo(game) {
  if (game.tokens.length) { game.boards.pop(); game.tokens.pop(); }
}
