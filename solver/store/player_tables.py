"""The player's tables (schema 2): ``plays``, one ``Play`` per game a policy played, and
``ratings``, one ``Rating`` per difficulty rating; and what ``yukon stats`` counts of them.
A schema 1 store opened read-only has neither table: it reads as holding no plays or
ratings."""

from dataclasses import fields

from solver.results.record import decode_deal, encode_deal
from solver.store.player_rows import Play, Rating
from solver.store.tables import RULE_KEY, Tables, blocks


def column_list(kind) -> str:
    return ", ".join(item.name for item in fields(kind))


class PlayerTables(Tables):
    """The ``plays`` and ``ratings`` methods of ``Store``."""

    def has_player_tables(self) -> bool:
        """False for a schema 1 store opened read-only (it has no plays or ratings)."""
        return bool(self.fetch("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'plays'"))

    def write_plays(self, plays: list[Play]) -> None:
        """Store games in one transaction; a game already stored under the same key is
        replaced by its identical replay."""
        self.write_rows("plays", Play, plays)

    def write_rating(self, rating: Rating) -> None:
        """Store one rating in its own transaction, replacing an earlier rating of the deal
        with the same runs and seed."""
        self.write_rows("ratings", Rating, [rating])

    def write_rows(self, table: str, kind, rows: list) -> None:
        values = [self.checked(row).to_row() for row in rows]
        placeholders = ", ".join("?" * len(fields(kind)))
        with self.transaction():
            self.connection.executemany(
                f"INSERT OR REPLACE INTO {table} ({column_list(kind)}) VALUES ({placeholders})", values
            )

    def pending_plays(self, deals, policy: str, settings: str, seed: int, runs: int) -> list[int]:
        """The deals of a DealRange lacking one of runs 0..runs-1 of this series."""
        pending = []
        for first, last in blocks(deals):
            stored = dict(
                self.fetch(
                    f"SELECT deal, COUNT(*) FROM plays WHERE {RULE_KEY} AND policy = ? AND settings = ? "
                    "AND seed = ? AND run < ? AND deal BETWEEN ? AND ? GROUP BY deal",
                    (*self.key, policy, settings, seed, runs, encode_deal(first), encode_deal(last)),
                )
            )
            pending += [deal for deal in range(first, last + 1) if stored.get(encode_deal(deal), 0) < runs]
        return pending

    def pending_ratings(self, deals, runs: int, seed: int) -> list[tuple[int, str, int, int]]:
        """(deal, status, solution_length, nodes) of every stored result in a DealRange with
        no rating of this runs and seed, or one made beside another verdict."""
        pending = []
        for first, last in blocks(deals):
            pending += [
                (decode_deal(deal), *figures)
                for deal, *figures in self.fetch(
                    "SELECT r.deal, r.status, r.solution_length, r.nodes FROM results r "
                    "LEFT JOIN ratings g ON g.variant = r.variant AND g.foundation_return = "
                    "r.foundation_return AND g.numbering = r.numbering AND g.deal = r.deal "
                    "AND g.runs = ? AND g.seed = ? "
                    "WHERE r.variant = ? AND r.foundation_return = ? AND r.numbering = ? "
                    "AND r.deal BETWEEN ? AND ? AND (g.deal IS NULL OR g.status != r.status) ORDER BY r.deal",
                    (runs, seed, *self.key, encode_deal(first), encode_deal(last)),
                )
            ]
        return pending

    def plays(self) -> list[Play]:
        """Every stored game, by deal, policy, settings, seed and run."""
        if not self.has_player_tables():
            return []
        rows = self.fetch(f"SELECT {column_list(Play)} FROM plays ORDER BY deal, policy, settings, seed, run")
        return [Play.from_row(row) for row in rows]

    def ratings(self) -> list[Rating]:
        """Every stored rating, by deal, runs and seed."""
        if not self.has_player_tables():
            return []
        rows = self.fetch(f"SELECT {column_list(Rating)} FROM ratings ORDER BY deal, runs, seed")
        return [Rating.from_row(row) for row in rows]

    def policy_figures(self) -> list[dict]:
        """Per policy and settings: games and wins, on all deals, on deals the store holds as
        solved (and how many of those deals were won at least once), and on deals it holds
        as unsolvable (a win there would contradict the verdict)."""
        if not self.has_player_tables():
            return []
        names = (
            "policy", "settings", "games", "wins", "deals", "solvable_games", "solvable_wins",
            "solvable_deals", "solvable_deals_won", "unsolvable_wins",
        )  # fmt: skip
        rows = self.fetch(
            "SELECT p.policy, p.settings, COUNT(*), SUM(p.won), COUNT(DISTINCT p.deal), "
            "SUM(r.status = 'solved'), SUM(p.won AND r.status = 'solved'), "
            "COUNT(DISTINCT CASE WHEN r.status = 'solved' THEN p.deal END), "
            "COUNT(DISTINCT CASE WHEN r.status = 'solved' AND p.won THEN p.deal END), "
            "SUM(p.won AND r.status = 'unsolvable') "
            "FROM plays p LEFT JOIN results r ON r.variant = p.variant AND r.foundation_return = "
            "p.foundation_return AND r.numbering = p.numbering AND r.deal = p.deal "
            f"WHERE p.{RULE_KEY.replace(' AND ', ' AND p.')} GROUP BY p.policy, p.settings ORDER BY 1, 2",
            self.key,
        )
        return [dict(zip(names, (*row[:2], *(value or 0 for value in row[2:])))) for row in rows]

    def policy_deal_games(self) -> dict[tuple[str, str], dict[str, list[tuple[int, int]]]]:
        """Per policy and settings, each deal's ``(wins, games)``: over all deals (``all``)
        and over the deals the store holds as solved (``solvable``), for intervals that
        count deals, not games, as the independent draws."""
        if not self.has_player_tables():
            return {}
        rows = self.fetch(
            "SELECT p.policy, p.settings, SUM(p.won), COUNT(*), MAX(r.status = 'solved') "
            "FROM plays p LEFT JOIN results r ON r.variant = p.variant AND r.foundation_return = "
            "p.foundation_return AND r.numbering = p.numbering AND r.deal = p.deal "
            f"WHERE p.{RULE_KEY.replace(' AND ', ' AND p.')} GROUP BY p.policy, p.settings, p.deal",
            self.key,
        )
        games: dict[tuple[str, str], dict[str, list[tuple[int, int]]]] = {}
        for policy, settings, wins, count, solved in rows:
            series = games.setdefault((policy, settings), {"all": [], "solvable": []})
            series["all"].append((wins, count))
            if solved:
                series["solvable"].append((wins, count))
        return games

    def tier_figures(self) -> list[dict]:
        """Per (runs, seed) of the ratings: deals by tier (None: not proved solvable)."""
        if not self.has_player_tables():
            return []
        rows = self.fetch(
            f"SELECT runs, seed, tier, COUNT(*) FROM ratings WHERE {RULE_KEY} "
            "GROUP BY 1, 2, 3 ORDER BY 1, 2, 3",
            self.key,
        )
        series: dict[tuple[int, int], dict] = {}
        for runs, seed, tier, count in rows:
            series.setdefault((runs, seed), {})[tier] = count
        return [{"runs": runs, "seed": seed, "tiers": tiers} for (runs, seed), tiers in series.items()]
