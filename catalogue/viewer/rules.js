// The rules of yukon, russian and milligan (optionally with foundation return) on boards and
// move tokens, as solver/reference.py states them (see ../README.md). An ES module for the
// page and for Node.
//
// A board is {columns: [[card, ...]], down: [face-down count], foundations: [height per slot],
// stock: [card, ...]}; a card is its text ("TS"), "??" where a view hides it; foundation slot
// i builds suit "SHDC"[i % 4]. A rule set is {variant, foundationReturn}; wherever one is
// asked for, a variant name alone means that variant without foundation return.
// A move is {kind, source, target, card, size}: kind TABLEAU (columns source -> target, a
// packet of size cards led by card), TO_FOUNDATION (target: the slot), FROM_FOUNDATION
// (source: the slot) or STOCK_DEAL (size: the cards dealt).

export const RANKS = "A23456789TJQK";
export const SUITS = "SHDC";
export const HIDDEN = "??";
export const TABLEAU = "tableau";
export const TO_FOUNDATION = "to-foundation";
export const FROM_FOUNDATION = "from-foundation";
export const STOCK_DEAL = "stock";
export const VARIANTS = ["yukon", "russian", "milligan"];

export function rankOf(card) { return RANKS.indexOf(card[0]) + 1; }
export function suitOf(card) { return SUITS.indexOf(card[1]); }
export function isRed(card) { return card[1] === "H" || card[1] === "D"; }

// A rule set from a variant name and the foundation-return option.
export function makeRules(variant, foundationReturn = false) {
  if (!VARIANTS.includes(variant)) throw new Error(`unknown variant ${variant} (choose one of ${VARIANTS.join(", ")})`);
  return { variant, foundationReturn: foundationReturn === true };
}

export function asRules(rules) { return typeof rules === "string" ? makeRules(rules) : rules; }

export function normalCard(text) {
  const card = text.toUpperCase().replace(/^10/, "T");
  if (card.length !== 2 || rankOf(card) < 1 || suitOf(card) < 0) throw new Error(`unknown card ${text}`);
  return card;
}

export function cardOfRank(rank, suit) { return RANKS[rank - 1] + SUITS[suit]; }

// The board of the project's board text (face-down cards in <>, "-" an empty column,
// "Foundations: S-0 H-5 ...", "Stock: ..."); "<?>" is a hidden card.
export function parseBoard(text) {
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
        perSuit[SUITS.indexOf(suit.toUpperCase())].push(rank === "0" ? 0 : RANKS.indexOf(rank.toUpperCase()) + 1);
      }
    } else if (label === "stock") {
      board.stock = rest.map(normalCard);
    } else if (line === "-") {
      board.columns.push([]); board.down.push(0);
    } else {
      const words = line.split(/\s+/);
      board.columns.push(words.map((word) => (word === "<?>" ? HIDDEN : normalCard(word.replace(/[<>]/g, "")))));
      board.down.push(words.filter((word) => word.startsWith("<")).length);
    }
  }
  const decks = Math.max(1, ...perSuit.map((heights) => heights.length));
  for (let copy = 0; copy < decks; copy++) {
    for (let suit = 0; suit < 4; suit++) board.foundations.push(perSuit[suit][copy] || 0);
  }
  return settle(board);
}

// The board's text, as solver/board.py writes it ("<?>" for a hidden card).
export function boardText(board) {
  const lines = board.columns.map((cards, column) => (cards.length
    ? cards.map((card, index) => (index < board.down[column] ? `<${card === HIDDEN ? "?" : card}>` : card)).join(" ")
    : "-"));
  lines.push(`Foundations: ${board.foundations.map((height, slot) => `${SUITS[slot % 4]}-${height ? RANKS[height - 1] : 0}`).join(" ")}`);
  if (board.stock.length) lines.push(`Stock: ${board.stock.join(" ")}`);
  return `${lines.join("\n")}\n`;
}

export function copyBoard(board) {
  return { columns: board.columns.map((cards) => cards.slice()), down: board.down.slice(),
    foundations: board.foundations.slice(), stock: board.stock.slice() };
}

// What a player sees of a board: every face-down and stock card replaced by HIDDEN.
export function viewOf(board) {
  const view = copyBoard(board);
  view.columns.forEach((cards, column) => cards.fill(HIDDEN, 0, view.down[column]));
  view.stock.fill(HIDDEN);
  return view;
}

export function hiddenCount(board) {
  return board.down.reduce((sum, down) => sum + down, 0) + board.stock.length;
}

export function buildsOn(card, below, rules) {
  if (rankOf(card) + 1 !== rankOf(below)) return false;
  return asRules(rules).variant === "russian" ? suitOf(card) === suitOf(below) : isRed(card) !== isRed(below);
}

// Does column `column` take a packet led by `card` (a King into an empty column)?
export function accepts(board, column, card, rules) {
  const cards = board.columns[column];
  if (!cards.length) return rankOf(card) === 13;
  return buildsOn(card, cards[cards.length - 1], rules);
}

// The first foundation slot of the card's suit whose top is one rank lower, or -1.
export function foundationSlotFor(board, card) {
  return board.foundations.findIndex((height, slot) => slot % 4 === suitOf(card) && height + 1 === rankOf(card));
}

// Non-empty slots, one per distinct top: of two equal slots the later one.
export function returnableSlots(board) {
  const slots = [];
  board.foundations.forEach((height, slot) => {
    if (height && !board.foundations.some((other, twin) => twin > slot && twin % 4 === slot % 4 && other === height)) {
      slots.push(slot);
    }
  });
  return slots;
}

function foundationTop(board, slot) { return cardOfRank(board.foundations[slot], slot % 4); }

// Every legal move, in solver/reference.py's order.
export function legalMoves(board, rules) {
  const { foundationReturn } = asRules(rules);
  const moves = [];
  board.columns.forEach((cards, source) => {
    for (let index = board.down[source]; index < cards.length; index++) {
      for (let target = 0; target < board.columns.length; target++) {
        if (target !== source && accepts(board, target, cards[index], rules)) {
          moves.push({ kind: TABLEAU, source, target, card: cards[index], size: cards.length - index });
        }
      }
    }
    const slot = cards.length ? foundationSlotFor(board, cards[cards.length - 1]) : -1;
    if (slot >= 0) moves.push({ kind: TO_FOUNDATION, source, target: slot, card: cards[cards.length - 1], size: 1 });
  });
  if (foundationReturn) {
    for (const slot of returnableSlots(board)) {
      const top = foundationTop(board, slot);
      for (let target = 0; target < board.columns.length; target++) {
        if (accepts(board, target, top, rules)) moves.push({ kind: FROM_FOUNDATION, source: slot, target, card: top, size: 1 });
      }
    }
  }
  if (board.stock.length) {
    moves.push({ kind: STOCK_DEAL, source: -1, target: -1, card: "", size: Math.min(board.stock.length, board.columns.length) });
  }
  return moves;
}

export function isWon(board) { return board.foundations.every((height) => height === 13); }

function faceUpPositions(board, column, card) {
  const found = [];
  for (let index = board.down[column]; index < board.columns[column].length; index++) {
    if (board.columns[column][index] === card) found.push(index);
  }
  return found;
}

// The token of a move made from `board` (solver/notation.py's move_token).
export function moveToken(board, move) {
  if (move.kind === STOCK_DEAL) return "S";
  if (move.kind === TO_FOUNDATION) return `${move.source + 1}>F:${move.card}`;
  if (move.kind === FROM_FOUNDATION) return `F>${move.target + 1}:${move.card}`;
  const twice = faceUpPositions(board, move.source, move.card).length > 1;
  return `${move.source + 1}>${move.target + 1}:${move.card}${twice ? `/${move.size}` : ""}`;
}

function columnIndex(text, board) {
  const number = Number(text);
  if (!(number >= 1 && number <= board.columns.length)) throw new Error(`there is no column ${text}`);
  return number - 1;
}

const TOKEN = /^(?:(\d{1,4})>(\d{1,4}|F)|F>(\d{1,4})):([0-9A-Z]{2,3})(?:\/(\d{1,4}))?$/i;

// The move a token names on `board` (its legality is checked when it is applied).
export function parseToken(board, token) {
  if (token.toUpperCase() === "S") {
    return { kind: STOCK_DEAL, source: -1, target: -1, card: "", size: Math.min(board.stock.length, board.columns.length) };
  }
  const match = TOKEN.exec(token);
  if (!match) throw new Error(`unreadable move ${token} (expected like 3>7:TS, 3>F:AH, F>2:QC or S)`);
  const card = normalCard(match[4]);
  if (match[3]) {
    const slot = returnableSlots(board).find((each) => foundationTop(board, each) === card);
    if (slot === undefined) throw new Error(`${card} is not on top of a foundation`);
    return { kind: FROM_FOUNDATION, source: slot, target: columnIndex(match[3], board), card, size: 1 };
  }
  const source = columnIndex(match[1], board);
  if (match[2].toUpperCase() === "F") {
    return { kind: TO_FOUNDATION, source, target: foundationSlotFor(board, card), card, size: 1 };
  }
  const cards = board.columns[source];
  const starts = faceUpPositions(board, source, card);
  const size = match[5] ? Number(match[5]) : starts.length === 1 ? cards.length - starts[0] : 0;
  if (!starts.includes(cards.length - size)) throw new Error(`${card} does not lead a packet in column ${source + 1}`);
  return { kind: TABLEAU, source, target: columnIndex(match[2], board), card, size };
}

// Throws an Error naming the broken rule, or returns if `move` is legal on `board`.
export function checkMove(board, move, rules) {
  const { foundationReturn } = asRules(rules);
  if (move.kind === TABLEAU) {
    const cards = board.columns[move.source];
    const index = cards.length - move.size;
    if (move.source === move.target) throw new Error("source and target are the same column");
    if (!(index >= board.down[move.source] && index < cards.length) || cards[index] !== move.card) {
      throw new Error(`${move.card} does not lead a packet of ${move.size} in column ${move.source + 1}`);
    }
    checkTarget(board, move.target, move.card, rules);
  } else if (move.kind === TO_FOUNDATION) {
    const cards = board.columns[move.source];
    if (cards[cards.length - 1] !== move.card) throw new Error(`only a column's exposed card goes to a foundation, not ${move.card}`);
    if (move.target < 0 || foundationSlotFor(board, move.card) !== move.target) throw new Error(`no foundation takes ${move.card} yet`);
  } else if (move.kind === FROM_FOUNDATION) {
    if (!foundationReturn) throw new Error("no foundation return in this rule set");
    if (!returnableSlots(board).includes(move.source) || foundationTop(board, move.source) !== move.card) {
      throw new Error(`${move.card} is not on top of a foundation`);
    }
    checkTarget(board, move.target, move.card, rules);
  } else if (move.kind === STOCK_DEAL) {
    if (!board.stock.length) throw new Error("the stock is empty");
  } else throw new Error(`unknown move kind ${move.kind}`);
}

function checkTarget(board, target, card, rules) {
  if (accepts(board, target, card, rules)) return;
  if (!board.columns[target].length) throw new Error(`only a King-led packet enters an empty column, not ${card}`);
  const need = asRules(rules).variant === "russian" ? "same suit" : "opposite colour";
  throw new Error(`${card} does not build on ${board.columns[target].at(-1)} (one rank lower, ${need})`);
}

// Keep the two slots of a suit highest first and turn a newly exposed face-down card.
function settle(board) {
  board.columns.forEach((cards, column) => {
    board.down[column] = Math.min(board.down[column], Math.max(cards.length - 1, 0));
  });
  for (let suit = 0; suit < 4; suit++) {
    const slots = [];
    for (let slot = suit; slot < board.foundations.length; slot += 4) slots.push(board.foundations[slot]);
    slots.sort((a, b) => b - a);
    slots.forEach((height, copy) => { board.foundations[suit + 4 * copy] = height; });
  }
  return board;
}

// The board after a legal move (a newly exposed face-down card turned up); `board` is left
// as it was. Throws on an illegal move.
export function applyMove(board, move, rules) {
  checkMove(board, move, rules);
  const next = copyBoard(board);
  if (move.kind === TABLEAU) next.columns[move.target].push(...next.columns[move.source].splice(-move.size));
  else if (move.kind === TO_FOUNDATION) { next.columns[move.source].pop(); next.foundations[move.target] += 1; }
  else if (move.kind === FROM_FOUNDATION) { next.foundations[move.source] -= 1; next.columns[move.target].push(move.card); }
  else next.stock.splice(0, move.size).forEach((card, column) => next.columns[column].push(card));
  return settle(next);
}

// The board after one token; the board given is left as it was. Throws on an illegal move.
export function applyToken(board, token, rules) {
  return applyMove(board, parseToken(board, token), rules);
}
