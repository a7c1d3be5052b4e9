"""The non-peeking player's figures: difficulty calibration, greedy and sampling win rates,
and hint latency.

    python benchmarks/bench_player.py calibrate --variant yukon --deals 1-2500 --runs 16
    python benchmarks/bench_player.py calibrate --variant russian --deals 1-40000 --runs 16
    python benchmarks/bench_player.py compare --variant yukon --deals 1-40 --samples 16
    python benchmarks/bench_player.py hint --variant yukon --deals 1-20 [--policy greedy]
    python benchmarks/bench_player.py stores --runs-dir /work/player-runs
    python benchmarks/bench_player.py stores --runs-dir /work/player-runs-milligan \
        --summary player_runs_milligan.json
    python benchmarks/bench_player.py blunders --variant yukon --deals 1-30 --samples 16
    python benchmarks/bench_player.py fusion --variant yukon --deals 1-50 --plan-plies 4
    nice -n 5 python benchmarks/bench_player.py expert --variant yukon --return --deals 90001-90100
    python benchmarks/bench_player.py expert-summary --variant yukon --return --deals 90001-90100
    python benchmarks/bench_player.py walk --variant yukon --deals 1-10

``stores`` reads the stores and the timings a run of ``yukon rate`` / ``yukon play`` left in
``--runs-dir`` (``<variant>.db``, ``timings.jsonl``: one {"step", "wall", "command"} line a
command) and writes their compact summary to ``benchmarks/results/player_runs.json``.
``blunders`` plays sampling games and, before each of its moves, asks the thoughtful solver
(which sees every card) whether the true position was solvable before and after the move:
a blunder turns a solvable position into a proved unsolvable one; it reports them by the
confidence sampling had in the move (``player_blunders_<variant>.json``). ``fusion`` plays
each deal with plain sampling and with ``plan_plies`` (a move scores only the worlds sharing
the commonest plan after it: see ``solver/player/sampling.py``), same seed and budgets
(``player_fusion_<variant>.json``).

``expert`` plays each deal once with the expert policy (``--settings``: JSON of its tuning,
default its defaults; seed ``--seed``), one JSON line per deal appended to ``--rows``
(default ``benchmarks/results/expert/<rule set>_<deals>.jsonl``; running it again plays only
the deals missing), every won line replayed on the reference engine. ``expert-summary``
reads those rows and writes the win rate over all deals with its 95% Wilson interval (one
game a deal, so deals are the draws), beside the thoughtful rate of the same deals from
``study/results/<rule set>.verdicts.csv.gz`` (deals beyond it are solved under
``--time-limit``, kept in ``<rows>.truth.jsonl``), to ``expert_<rule set>_<deals>.json``.

``walk`` follows the hints of ``--policy`` (default expert, seed 0) from the opening of each
deal, each hint given the game so far, until a hint suggests no move (won, lost, gone,
stuck) or 1,000 moves; it writes games won beside the deals the study proved solvable
(``walk_<policy>_<rule set>_<deals>.json``).

``calibrate`` solves each deal (``--time-limit``), rates the solvable ones with the greedy
player (R runs), appends one JSON line per deal to ``--rows`` (run it again to resume), then
prints the failure-rate thresholds that split the solvable deals nearest to thirds, the
split under the thresholds in ``solver.player.difficulty.TIERS``, and per tier how often the
greedy player wins with other seeds (``--check-seed``). Results go to
``benchmarks/results/player_calibration_<variant>.json``.
"""

import argparse
import json
import re
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

from common import command_line, machine_info, now, parse_deals, percentiles, write_json

from solver.common.stats import clustered_rate_entry, percentile, rate_entry
from solver.game import reference
from solver.game.notation import parse_token
from solver.game.numbering import deal_board
from solver.game.rules import Rules
from solver.player.difficulty import TIERS, rate_solved, tier_of
from solver.player.greedy import GAME_MOVES, Greedy
from solver.player.hint import MOVE, hint
from solver.player.hint import WON as WON_STATUS
from solver.player.history import History
from solver.player.play import play_deal
from solver.player.policies import make_policy
from solver.player.sampling import Sampling
from solver.player.view import view_of
from solver.results.limits import Limits
from solver.results.result import SOLVED, TIER_NAMES, UNSOLVABLE
from solver.runs.summary import summarize
from solver.search.solve import solve_position
from solver.store import Store
from study.tables import RESULTS as STUDY_TABLES
from study.tables import read_table

RESULTS = Path(__file__).parent / "results"


def calibrate(args) -> None:
    rules = Rules(args.variant)
    rows_path = Path(args.rows or RESULTS / f"player_calibration_{args.variant}.jsonl")
    done = {json.loads(line)["deal"] for line in rows_path.open()} if rows_path.exists() else set()
    started = time.perf_counter()
    with rows_path.open("a") as rows:
        for deal in parse_deals(args.deals):
            if deal in done:
                continue
            board = deal_board(args.variant, deal)
            result = solve_position(board, rules, Limits(time_limit=args.time_limit))
            row = {"deal": deal, "status": result.status}
            if result.status == SOLVED:
                rating = rate_solved(board, rules, result, args.runs, args.seed)
                check = rate_solved(board, rules, result, args.runs, args.check_seed)
                row |= {
                    "failures": rating.failures,
                    "check_failures": check.failures,
                    "length": rating.thoughtful_length,
                    "nodes": rating.solver_nodes,
                }
            rows.write(json.dumps(row) + "\n")
            rows.flush()
    print(f"rated in {time.perf_counter() - started:.1f} s", file=sys.stderr)
    rows = [json.loads(line) for line in rows_path.open()]
    summary = calibration_summary(rows, args)
    print(json.dumps({key: summary[key] for key in ("solvable", "proposed", "split", "per_tier")}, indent=1))
    write_json(RESULTS / f"player_calibration_{args.variant}.json", summary)


def calibration_summary(rows: list[dict], args) -> dict:
    rated = [row for row in rows if row["status"] == SOLVED]
    rates = [row["failures"] / args.runs for row in rated]
    proposed = (nearest_cut(rates, 1 / 3), nearest_cut(rates, 2 / 3))
    per_tier = {}
    for tier in TIER_NAMES:
        members = [row for row in rated if tier_of(row["failures"] / args.runs, args.variant) == tier]
        per_tier[tier] = {
            "deals": len(members),
            "share": len(members) / len(rated) if rated else 0.0,
            "greedy_win_rate_other_seed": mean(1 - row["check_failures"] / args.runs for row in members),
            "thoughtful_length_mean": mean(row["length"] for row in members),
            "solver_nodes_median": statistics.median([row["nodes"] for row in members]) if members else None,
        }
    return {
        "benchmark": "bench_player calibrate",
        "command": command_line(),
        "date": now(),
        "machine": machine_info(),
        "variant": args.variant,
        "runs": args.runs,
        "seed": args.seed,
        "check_seed": args.check_seed,
        "deals_run": len(rows),
        "solvable": len(rated),
        "statuses": {
            status: sum(row["status"] == status for row in rows) for status in {r["status"] for r in rows}
        },
        "failure_rate_percentiles": percentiles(rates) if rates else {},
        "greedy_win_rate_on_solvable": 1 - mean(rates),
        "proposed": proposed,
        "thresholds": TIERS[args.variant],
        "split": {tier: figures["share"] for tier, figures in per_tier.items()},
        "per_tier": per_tier,
    }


def nearest_cut(rates: list[float], share: float) -> float:
    """The failure rate v for which the share of rates <= v is nearest ``share``."""
    values = sorted(set(rates))
    return min(values, key=lambda v: abs(sum(rate <= v for rate in rates) / len(rates) - share))


def mean(values) -> float | None:
    values = list(values)
    return sum(values) / len(values) if values else None


def compare(args) -> None:
    """Greedy (per-seed mean over R runs) against sampling (one game per deal)."""
    rules = Rules(args.variant)
    sampling = Sampling(samples=args.samples, max_nodes=args.max_nodes)
    greedy, rows = Greedy(), []
    for deal in parse_deals(args.deals):
        board = deal_board(args.variant, deal)
        started = time.perf_counter()
        won, moves = sampling.play(board, rules, args.seed)
        seconds = time.perf_counter() - started
        greedy_wins = sum(greedy.wins(board, rules, list(range(args.runs))))
        rows.append({"deal": deal, "sampling_won": won, "seconds": seconds, "greedy_wins": greedy_wins})
        print(json.dumps(rows[-1]), file=sys.stderr)
    summary = {
        "benchmark": "bench_player compare",
        "command": command_line(),
        "date": now(),
        "machine": machine_info(),
        "variant": args.variant,
        "settings": sampling.settings(),
        "deals": len(rows),
        "sampling_win_rate": mean(row["sampling_won"] for row in rows),
        "greedy_win_rate": mean(row["greedy_wins"] / args.runs for row in rows),
        "sampling_seconds_per_game": percentiles([row["seconds"] for row in rows]),
        "rows": rows,
    }
    print(json.dumps({key: value for key, value in summary.items() if key != "rows"}, indent=1))
    write_json(RESULTS / f"player_compare_{args.variant}.json", summary)


def hint_latency(args) -> None:
    """Seconds for a hint (``--policy``, default settings) at the opening of each deal and
    after 10 moves of a greedy game (after one warm-up)."""
    rules = Rules(args.variant)
    policy = make_policy(args.policy)
    hint(deal_board(args.variant, 1), rules, args.policy)
    seconds = []
    for deal in parse_deals(args.deals):
        opening = deal_board(args.variant, deal)
        _won, moves = Greedy().play(opening, rules, deal)
        for board in (opening, reference.replay(opening, moves[:10], rules)):
            if reference.is_won(board) or not reference.legal_moves(board, rules):
                continue
            started = time.perf_counter()
            answer = hint(board, rules, args.policy, seed=deal)
            seconds.append(time.perf_counter() - started)
            print(f"{deal}: {answer.text()} [{seconds[-1]:.3f} s]", file=sys.stderr)
    ordered = sorted(seconds)
    summary = {
        "benchmark": "bench_player hint",
        "command": command_line(),
        "date": now(),
        "machine": machine_info(),
        "variant": args.variant,
        "policy": args.policy,
        "settings": policy.settings(),
        "positions": len(seconds),
        "hidden_cards_at_opening": view_of(deal_board(args.variant, 1), rules).hidden_count,
        "seconds": percentiles(seconds) | {"p95": percentile(ordered, 0.95)},
    }
    print(json.dumps(summary["seconds"], indent=1))
    write_json(RESULTS / f"player_hint_{args.policy}_{args.variant}.json", summary)


def store_runs(args) -> None:
    """The compact summary of the ``yukon rate`` / ``yukon play`` runs in ``--runs-dir``."""
    runs_dir = Path(args.runs_dir)
    timings = [json.loads(line) for line in (runs_dir / "timings.jsonl").open() if line.startswith("{")]
    variants = {}
    for store in sorted(runs_dir.glob("*.db")):
        summary = summarize(store)
        variants[store.stem] = {
            "deals": summary["deals"],
            "counts": summary["counts"],
            "thoughtful_win_rate": summary["win_rate"]["decided"],
            "solver_time_limits": summary["time_limits"],
            "policies": summary["policies"],
            "tiers": summary["tiers"],
            "greedy_on_the_deals_sampling_played": greedy_on_sampled_deals(store),
        }
    result = {
        "benchmark": "bench_player stores",
        "command": command_line(),
        "date": now(),
        "machine": machine_info(),
        "note": "win_rate and on_solvable entries count games ('deals' there = games); "
        "core_seconds_per_game = wall seconds x --jobs / games (the machine was shared)",
        "steps": [step | core_seconds(step, runs_dir) for step in timings],
        "variants": variants,
    }
    print(json.dumps(result, indent=1))
    write_json(RESULTS / args.summary, result)


def greedy_on_sampled_deals(store_path) -> dict:
    """The greedy games' win rate on the deals the sampling policy played, its 95% interval
    clustered by deal (a deal's games are alike)."""
    with Store.open_existing(store_path) as store:
        plays = store.plays()
    sampled = {play.deal for play in plays if play.policy == "sampling"}
    per_deal: dict[int, list[int]] = {}
    for play in plays:
        if play.policy == "greedy" and play.deal in sampled:
            per_deal.setdefault(play.deal, []).append(play.won)
    games = [(sum(won), len(won)) for won in per_deal.values()]
    return clustered_rate_entry(games) | {"sampled_deals": len(sampled)}


def core_seconds(step: dict, runs_dir: Path) -> dict:
    """Seconds of one core per game for a ``yukon play`` step, from the games it says it
    played (its stderr: "playing N (R policy games each)")."""
    said = re.search(r"playing (\d+) \((\d+) ", (runs_dir / f"{step['step']}.err").read_text())
    if step["command"].split()[1] != "play" or said is None:
        return {}
    jobs = int(step["command"].split("--jobs ")[1].split()[0])
    games = int(said[1]) * int(said[2])
    return {"games": games, "core_seconds_per_game": step["wall"] * jobs / games if games else None}


def blunders(args) -> None:
    """Sampling's confidence in each of its moves against the truth: was the true position
    solvable before the move, and after it?"""
    rules = Rules(args.variant)
    sampling = Sampling(samples=args.samples, max_nodes=args.max_nodes)
    limits = Limits(time_limit=args.time_limit)
    moves = []

    def observe(board, move, confidence):
        after = reference.apply_move(board, move, rules)
        statuses = [solve_position(position, rules, limits).status for position in (board, after)]
        moves.append({"confidence": confidence.fraction, "before": statuses[0], "after": statuses[1]})

    games = []
    for deal in parse_deals(args.deals):
        first = len(moves)
        won, _line = sampling.play(deal_board(args.variant, deal), rules, args.seed, observe)
        games.append({"deal": deal, "won": won, "sampling_moves": len(moves) - first})
        print(json.dumps(games[-1]), file=sys.stderr)
    decided = [move for move in moves if move["before"] == SOLVED and move["after"] in (SOLVED, UNSOLVABLE)]
    bins = {}
    for low in (0.0, 0.5, 0.75, 0.9, 1.0):
        members = [move for move in decided if move["confidence"] >= low]
        bins[f">= {low}"] = {
            "moves": len(members),
            "blunders": sum(move["after"] == UNSOLVABLE for move in members),
        }
    summary = {
        "benchmark": "bench_player blunders",
        "command": command_line(),
        "date": now(),
        "machine": machine_info(),
        "variant": args.variant,
        "settings": sampling.settings(),
        "seed": args.seed,
        "truth_time_limit": args.time_limit,
        "games": len(games),
        "won": sum(game["won"] for game in games),
        "sampling_moves": len(moves),
        "moves_from_solvable_with_decided_after": len(decided),
        "blunders_by_confidence_at_least": bins,
        "moves_by_truth": {
            f"{before} -> {after}": sum(
                1 for move in moves if (move["before"], move["after"]) == (before, after)
            )
            for before, after in sorted({(move["before"], move["after"]) for move in moves})
        },
        "games_detail": games,
    }
    print(json.dumps({key: value for key, value in summary.items() if key != "games_detail"}, indent=1))
    write_json(RESULTS / f"player_blunders_{args.variant}.json", summary)


def fusion(args) -> None:
    """Plain sampling against sampling that scores only a shared plan, deal by deal."""
    rules = Rules(args.variant)
    players = {
        "plain": Sampling(samples=args.samples, max_nodes=args.max_nodes),
        "plan": Sampling(samples=args.samples, max_nodes=args.max_nodes, plan_plies=args.plan_plies),
    }
    rows = []
    for deal in parse_deals(args.deals):
        row = {"deal": deal}
        for name, player in players.items():
            started = time.perf_counter()
            row[name] = player.play(deal_board(args.variant, deal), rules, args.seed)[0]
            row[f"{name}_seconds"] = time.perf_counter() - started
        rows.append(row)
        print(json.dumps(row), file=sys.stderr)
    summary = {
        "benchmark": "bench_player fusion",
        "command": command_line(),
        "date": now(),
        "machine": machine_info(),
        "variant": args.variant,
        "seed": args.seed,
        "settings": {name: player.settings() for name, player in players.items()},
        "deals": len(rows),
        "wins": {name: sum(row[name] for row in rows) for name in players},
        "only_plain_won": [row["deal"] for row in rows if row["plain"] and not row["plan"]],
        "only_plan_won": [row["deal"] for row in rows if row["plan"] and not row["plain"]],
        "seconds_per_game": {name: percentiles([row[f"{name}_seconds"] for row in rows]) for name in players},
        "rows": rows,
    }
    print(json.dumps({key: value for key, value in summary.items() if key != "rows"}, indent=1))
    write_json(RESULTS / f"player_fusion_{args.variant}.json", summary)


def rule_set_name(args) -> str:
    return f"{args.variant}{'-return' if args.foundation_return else ''}"


def expert_rows_path(args) -> Path:
    return Path(args.rows or RESULTS / "expert" / f"{rule_set_name(args)}_{args.deals}.jsonl")


def expert_games(args) -> None:
    """One expert game a deal, resumable, each line replayed (``play_deal``)."""
    rules = Rules(args.variant, args.foundation_return)
    settings = json.loads(args.settings)
    path = expert_rows_path(args)
    path.parent.mkdir(parents=True, exist_ok=True)
    done = {json.loads(line)["deal"] for line in path.open()} if path.exists() else set()
    with path.open("a") as rows:
        for deal in parse_deals(args.deals):
            if deal in done:
                continue
            started = time.process_time()
            record = play_deal(deal, rules, "expert", args.seed, **settings)
            row = {"deal": deal, "won": record.won, "moves": record.moves, "settings": dict(record.settings)}
            row |= {"seed": args.seed, "cpu_seconds": time.process_time() - started}
            rows.write(json.dumps(row) + "\n")
            rows.flush()
            print(
                json.dumps({key: row[key] for key in ("deal", "won", "moves", "cpu_seconds")}),
                file=sys.stderr,
            )


def thoughtful_verdicts(name: str) -> dict[int, str]:
    return {deal: status for deal, status, *_ in read_table(STUDY_TABLES, name).rows}


def verdicts_of(deals: list[int], args) -> dict[int, str]:
    """The thoughtful verdict of each deal: the study's, else solved here under
    ``--time-limit`` and kept in ``<rows>.truth.jsonl`` (solved once)."""
    verdicts = thoughtful_verdicts(rule_set_name(args))
    path = expert_rows_path(args).with_suffix(".truth.jsonl")
    if path.exists():
        verdicts |= {row["deal"]: row["status"] for row in map(json.loads, path.open())}
    rules = Rules(args.variant, args.foundation_return)
    missing = [deal for deal in deals if deal not in verdicts]
    if not missing:
        return verdicts
    with path.open("a") as kept:
        for deal in missing:
            if deal not in verdicts:
                status = solve_position(
                    deal_board(args.variant, deal), rules, Limits(time_limit=args.time_limit)
                )
                verdicts[deal] = status.status.value
                kept.write(json.dumps({"deal": deal, "status": verdicts[deal]}) + "\n")
    return verdicts


def expert_summary(args) -> None:
    """The expert's win rate over all deals played, beside the thoughtful rate."""
    rows = [json.loads(line) for line in expert_rows_path(args).open()]
    verdicts = verdicts_of([row["deal"] for row in rows], args)
    decided = [row for row in rows if verdicts.get(row["deal"]) in (SOLVED, UNSOLVABLE)]
    solvable = [row for row in rows if verdicts.get(row["deal"]) == SOLVED]
    summary = {
        "benchmark": "bench_player expert-summary",
        "command": command_line(),
        "date": now(),
        "machine": machine_info(),
        "rule_set": rule_set_name(args),
        "deals": args.deals,
        "rows": expert_rows_path(args).name,
        "settings": sorted({json.dumps(row["settings"], sort_keys=True) for row in rows}),
        "games": len(rows),
        "expert_all_deals": rate_entry(sum(row["won"] for row in rows), len(rows)),
        "thoughtful_decided_deals": rate_entry(len(solvable), len(decided)),
        "expert_on_solvable_deals": rate_entry(sum(row["won"] for row in solvable), len(solvable)),
        "won_without_a_solved_verdict": [row["deal"] for row in rows if row["won"] and row not in solvable],
        "cpu_seconds_per_game": percentiles([row["cpu_seconds"] for row in rows]),
    }
    print(json.dumps(summary, indent=1))
    write_json(RESULTS / f"expert_{rule_set_name(args)}_{args.deals}.json", summary)


def hint_walk(deal: int, rules: Rules, policy: str) -> dict:
    """Follow ``policy``'s hints from the opening of ``deal``."""
    board, history, moves = deal_board(rules.variant, deal), History(), 0
    started = time.perf_counter()
    answer = hint(board, rules, policy, history=history)
    while answer.status == MOVE and moves < GAME_MOVES:
        move = parse_token(answer.move, board)
        history = history.after(view_of(board, rules), move)
        board, moves = reference.apply_move(board, move, rules), moves + 1
        answer = hint(board, rules, policy, history=history)
    seconds = time.perf_counter() - started
    return {"deal": deal, "won": answer.status == WON_STATUS, "end": answer.status, "moves": moves} | {
        "seconds_per_hint": seconds / (moves + 1)
    }


def walk(args) -> None:
    rules = Rules(args.variant, args.foundation_return)
    verdicts = thoughtful_verdicts(rule_set_name(args))
    games = []
    for deal in parse_deals(args.deals):
        games.append(hint_walk(deal, rules, args.policy) | {"thoughtful": verdicts.get(deal)})
        print(json.dumps(games[-1]), file=sys.stderr)
    solvable = [game for game in games if game["thoughtful"] == SOLVED]
    summary = {
        "benchmark": "bench_player walk",
        "command": command_line(),
        "date": now(),
        "machine": machine_info(),
        "rule_set": rule_set_name(args),
        "policy": args.policy,
        "settings": make_policy(args.policy).settings(),
        "deals": len(games),
        "solvable": len(solvable),
        "won": sum(game["won"] for game in games),
        "won_of_solvable": sum(game["won"] for game in solvable),
        "ends": dict(Counter(game["end"] for game in games)),
        "games": games,
    }
    print(json.dumps({key: value for key, value in summary.items() if key != "games"}, indent=1))
    write_json(RESULTS / f"walk_{args.policy}_{rule_set_name(args)}_{args.deals}.json", summary)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "task",
        choices=(
            "calibrate",
            "compare",
            "hint",
            "stores",
            "blunders",
            "fusion",
            "expert",
            "expert-summary",
            "walk",
        ),
    )
    parser.add_argument("--variant", default="yukon")
    parser.add_argument("--return", dest="foundation_return", action="store_true", help="foundation return")
    parser.add_argument("--settings", default="{}", help="expert: its tuning as JSON")
    parser.add_argument("--deals", default="1-100")
    parser.add_argument("--runs", type=int, default=16)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--check-seed", type=int, default=1)
    parser.add_argument("--time-limit", type=float, default=2.0)
    parser.add_argument("--samples", type=int, default=16)
    parser.add_argument("--max-nodes", type=int, default=10_000)
    parser.add_argument("--rows", help="the resumable JSON-lines file of calibrate")
    parser.add_argument("--policy", default="expert", help="hint, walk: the policy timed or followed")
    parser.add_argument("--plan-plies", type=int, default=4, help="fusion: plies of the shared plan")
    parser.add_argument("--runs-dir", default="/work/player-runs", help="stores: where the runs are")
    parser.add_argument(
        "--summary", default="player_runs.json", help="stores: the file written in benchmarks/results/"
    )
    args = parser.parse_args()
    tasks = {"calibrate": calibrate, "compare": compare, "hint": hint_latency, "stores": store_runs}
    tasks |= {
        "blunders": blunders,
        "fusion": fusion,
        "expert": expert_games,
        "expert-summary": expert_summary,
        "walk": walk,
    }
    tasks[args.task](args)


if __name__ == "__main__":
    main()
