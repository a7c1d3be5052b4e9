// The rules of yukon, russian and milligan on board text and move tokens (see ../README.md).
// A board is {columns: [[card, ...]], down: [face-down count], foundations: [height per slot],
// stock: [card, ...]}; a card is its text ("TS"); foundation slot i builds suit "SHDC"[i % 4].
"use strict";

const RANKS = "A23456789TJQK";
const SUITS = "SHDC";

function rankOf(card) { return RANKS.indexOf(card[0]) + 1; }
function suitOf(card) { return SUITS.indexOf(card[1]); }
function isRed(card) { return card[1] === "H" || card[1] === "D"; }

function normalCard(text) {
  const card = text.toUpperCase().replace(/^10/, "T");
  if (card.length !== 2 || rankOf(card) < 1 || suitOf(card) < 0) throw new Error(`unknown card ${text}`);
  return card;
}

function parseBoard(text) {
  const board = { columns: [], down: [], foundations: [], stock: [] };
  const perSuit = [[], [], [], []];
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (!line || line.startsWith("#")) continue;
    const label = line.split(":")[0].trim().toLowerCase();
    const rest = line.slice(line.indexOf(":") + 1).trim().split(/\s+/).filter(Boolean);
    if (label === "foundations") {
      for (const word of rest) {
        const [suit, rank] = word.split("-");
        perSuit[SUITS.indexOf(suit.toUpperCase())].push(rank === "0" ? 0 : RANKS.indexOf(rank) + 1);
      }
    } else if (label === "stock") {
      board.stock = rest.map(normalCard);
    } else if (line === "-") {
      board.columns.push([]); board.down.push(0);
    } else {
      const words = line.split(/\s+/);
      board.columns.push(words.map((word) => normalCard(word.replace(/[<>]/g, ""))));
      board.down.push(words.filter((word) => word.startsWith("<")).length);
    }
  }
  const decks = Math.max(1, ...perSuit.map((heights) => heights.length));
  for (let copy = 0; copy < decks; copy++) {
    for (let suit = 0; suit < 4; suit++) board.foundations.push(perSuit[suit][copy] || 0);
  }
  return board;
}

function copyBoard(board) {
  return { columns: board.columns.map((cards) => cards.slice()), down: board.down.slice(),
    foundations: board.foundations.slice(), stock: board.stock.slice() };
}

function accepts(board, column, card, variant) {
  const cards = board.columns[column];
  if (!cards.length) return rankOf(card) === 13;
  const below = cards[cards.length - 1];
  if (rankOf(card) + 1 !== rankOf(below)) return false;
  return variant === "russian" ? suitOf(card) === suitOf(below) : isRed(card) !== isRed(below);
}

function columnIndex(text, board) {
  const number = Number(text);
  if (!(number >= 1 && number <= board.columns.length)) throw new Error(`there is no column ${text}`);
  return number - 1;
}

// Keep the two slots of a suit highest first, as the reference engine does.
function settle(board) {
  for (let column = 0; column < board.columns.length; column++) {
    board.down[column] = Math.min(board.down[column], Math.max(board.columns[column].length - 1, 0));
  }
  for (let suit = 0; suit < 4; suit++) {
    const slots = [];
    for (let slot = suit; slot < board.foundations.length; slot += 4) slots.push(board.foundations[slot]);
    slots.sort((a, b) => b - a);
    slots.forEach((height, copy) => { board.foundations[suit + 4 * copy] = height; });
  }
  return board;
}

function packetMove(board, source, target, card, size, variant) {
  const cards = board.columns[source];
  const starts = [];
  for (let i = board.down[source]; i < cards.length; i++) if (cards[i] === card) starts.push(i);
  const start = size ? cards.length - size : starts.length === 1 ? starts[0] : -1;
  if (!starts.includes(start)) throw new Error(`${card} does not lead a packet in column ${source + 1}`);
  if (source === target || !accepts(board, target, card, variant)) throw new Error(`${card} cannot go to column ${target + 1}`);
  board.columns[target].push(...cards.splice(start));
}

function toFoundation(board, source, card) {
  const cards = board.columns[source];
  const slot = board.foundations.findIndex((height, i) => i % 4 === suitOf(card) && height + 1 === rankOf(card));
  if (cards[cards.length - 1] !== card || slot < 0) throw new Error(`${card} cannot go to a foundation`);
  cards.pop();
  board.foundations[slot] += 1;
}

function fromFoundation(board, target, card, variant) {
  let slot = -1;
  board.foundations.forEach((height, i) => { if (i % 4 === suitOf(card) && height === rankOf(card)) slot = i; });
  if (slot < 0 || !accepts(board, target, card, variant)) throw new Error(`${card} cannot come back to column ${target + 1}`);
  board.foundations[slot] -= 1;
  board.columns[target].push(card);
}

function stockDeal(board) {
  if (!board.stock.length) throw new Error("the stock is empty");
  const dealt = board.stock.splice(0, Math.min(board.stock.length, board.columns.length));
  dealt.forEach((card, column) => board.columns[column].push(card));
}

// The board after one token; the board given is left as it was. Throws on an illegal move.
function applyToken(board, token, variant) {
  const next = copyBoard(board);
  const match = /^(?:(\d+)>(\d+|F)|F>(\d+)):(\w{2,3})(?:\/(\d+))?$/i.exec(token);
  if (token.toUpperCase() === "S") stockDeal(next);
  else if (!match) throw new Error(`unreadable move ${token}`);
  else if (match[3]) fromFoundation(next, columnIndex(match[3], next), normalCard(match[4]), variant);
  else if (match[2].toUpperCase() === "F") toFoundation(next, columnIndex(match[1], next), normalCard(match[4]));
  else packetMove(next, columnIndex(match[1], next), columnIndex(match[2], next), normalCard(match[4]),
    match[5] ? Number(match[5]) : 0, variant);
  return settle(next);
}
