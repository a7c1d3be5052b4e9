"""Rescoring a shipped file with a refined ladder: entries keep their place, tier, `since`
and every other key; a rescoring that would move an entry to another tier is refused; and
every shipped file still holds, in order, the entries and tiers it held at main 39cf49e."""

import hashlib

import pytest

from solver.catalogue.files import read_catalogue, read_manifest, save_catalogue, shipped_directory
from solver.catalogue.rescore import rescore_file, rescored
from solver.catalogue.verify import verify_directory
from solver.errors import YukonError
from solver.player.difficulty import ladder_rating

# SHA-256 of the lines "numbering:deal:tier:since" of each shipped file, in file order, as
# main 39cf49e shipped them: a rescoring may change scores, never which entry sits where.
SHIPPED_TIERS = {
    "milligan-easy.json": "f35cd66df7fba19038ff6a29d7fdbe2cabdbf52b20824b75f39daacc921ee389",
    "milligan-hard.json": "b9289f4ed046fdd8e42b7bc33365ff11d7eb4cf9b474afc68bbcce7b790b2a31",
    "milligan-normal.json": "71fce344ec1364c60149c7a0a576382080e582d57a6ec35451e0a03400ca76f0",
    "milligan-return-easy.json": "f35cd66df7fba19038ff6a29d7fdbe2cabdbf52b20824b75f39daacc921ee389",
    "milligan-return-hard.json": "7c4d1a5ce2a10024c0d064419be2192f5f4891676c3ee3c9ae68752423660efa",
    "milligan-return-normal.json": "71fce344ec1364c60149c7a0a576382080e582d57a6ec35451e0a03400ca76f0",
    "russian-easy.json": "4863e2209ae89a311ec1ba0f96a8917a96a3e223f7a815d1c518b4d9c12bfa9f",
    "russian-hard.json": "ef789bc6fd99c6dabc8bf0fe929293312168ec48af754c0e6050234ca965f7d8",
    "russian-normal.json": "6ff20254bceb2b824e1754530609c0c2b84bc737755939f3c5637cdec6b64d9f",
    "russian-return-easy.json": "4863e2209ae89a311ec1ba0f96a8917a96a3e223f7a815d1c518b4d9c12bfa9f",
    "russian-return-hard.json": "13ba23c854f4ef9fe665aa4b655322ddc754ce855cea0ccddc2fa26710ab25cf",
    "russian-return-normal.json": "90b0f4d2b852776fd6d4bff0f6a5f84cfc410741a735f48076b57fb8303fd2c6",
    "yukon-easy.json": "6860907eee4ae55a02d32184453fdcc9ea0cfca4590aea1ef5ea5a9caa4fc927",
    "yukon-hard.json": "390378bc7451c902fd572521c65bc87e4de715725b2ef9c7844682edacf5965a",
    "yukon-kpat-easy.json": "d12002e3e612e6afd3df2d0a16a4ef557986f9b6bd3f1b27584cd296b1e9b621",
    "yukon-kpat-hard.json": "c35f51de4c00e972a0b19a3c6590c628d22302429a74a828d5adb308294dabba",
    "yukon-kpat-normal.json": "0e81518bdc40f778f29ec5d4c4d44caff3aad47b56366762102cd1dab878b2f0",
    "yukon-normal.json": "995cab16541b9bc61058c25a387ff85c227793b0e23480d675d10ec45ea96a73",
    "yukon-return-easy.json": "00272901ae8c6a9cc71af3fcdf665b3ce439fc546da53143d345abbc05ba635b",
    "yukon-return-hard.json": "ad1458f5d59e81641f71705bb9e79f228c88d4368160809b46d1a8b3cdbddee7",
    "yukon-return-normal.json": "1e763c60826b2dac0eef8d0f4cde7961ebe750016571645512bf04e354076bce",
}


def tier_lines(catalogue: dict) -> str:
    return "".join(f"{e['numbering']}:{e['deal']}:{e['tier']}:{e['since']}\n" for e in catalogue["entries"])


@pytest.mark.parametrize("name", sorted(SHIPPED_TIERS))
def test_no_shipped_entry_changed_place_or_tier(name):
    catalogue = read_catalogue(shipped_directory() / name)
    assert hashlib.sha256(tier_lines(catalogue).encode()).hexdigest() == SHIPPED_TIERS[name]


# The same of the files of generation 2 as first shipped (commit of branch ladder, 2026-12-06).
GENERATION_2_TIERS = {
    "milligan-easy-g2.json": "4e2ea35f543e1821f2423249217e833887e3387ff260ee29c7eb6de91926a4f0",
    "milligan-hard-g2.json": "f082efafb1c84dd8605131008af627c654689f98c81a653962be08efdc376987",
    "milligan-normal-g2.json": "8e5a5d92c1d5b1a42b3bc8aba49a36b2f72badca2d694d20e905de8240f55250",
    "milligan-return-easy-g2.json": "4e2ea35f543e1821f2423249217e833887e3387ff260ee29c7eb6de91926a4f0",
    "milligan-return-hard-g2.json": "f082efafb1c84dd8605131008af627c654689f98c81a653962be08efdc376987",
    "milligan-return-normal-g2.json": "8e5a5d92c1d5b1a42b3bc8aba49a36b2f72badca2d694d20e905de8240f55250",
    "russian-easy-g2.json": "6a485c60351bfadc259edcef97cf01d95b6e9daf6a7ff6214304ea4e049d2e01",
    "russian-hard-g2.json": "104105801416db222d196411c11305b3de2675dcf85a5cf6be729ba32f914070",
    "russian-normal-g2.json": "88f618ff92e57953aa30bf2308ed477ae47d00002a708f52ffff44501e46b01a",
    "russian-return-easy-g2.json": "c915b516f327870971ecf803e6df8cd8eb355b8a381d8096ac496fa4f6aac745",
    "russian-return-hard-g2.json": "6607bceb18ac7664cc2f27491451b6f0ac26506651c3a8946dc3c19ba522af7a",
    "russian-return-normal-g2.json": "2b433ee576b664af97cdbc07ce47044d69455fcdff7abd315b053907c80a6d02",
    "yukon-easy-g2.json": "b98959d5bac6ed3edfd79d5632205e1c2c25a8b2a8015e365db39a803377636e",
    "yukon-hard-g2.json": "ed8b2281bfd7e112c50cd97a79406d9eba73a03cf78c9f9186f02268ab7caea8",
    "yukon-kpat-easy-g2.json": "88dbd5caa5117cf9540917556e574eb0b9009e90a5e9418959fda2b4b8678430",
    "yukon-kpat-hard-g2.json": "0bbf14e40fc89a6d92d8a77c5a0cc8b3ccb10d6ecf14e7f9630e769ca6efbf66",
    "yukon-kpat-normal-g2.json": "2ac645ad5f14c42757f3ca377e6484cb769450489fb09c47a3130006581e8041",
    "yukon-normal-g2.json": "cdf8bfcdc11f37700f38a1e047edcaca460ffde6ad361df1a83afe73e6a60dee",
    "yukon-return-easy-g2.json": "16f28e3c0648491d007fc3ea0345c584be85164e32e91bc4eca3c5c978582850",
    "yukon-return-hard-g2.json": "8222f1592b1c9b5cc58d758fefd4f3cd683368deec95d08de45b5aeb7a70bc31",
    "yukon-return-normal-g2.json": "eba2a7b446a4e96a7a0856fb629710a468e365f83e8cc91c58b53080863a43e6",
}


@pytest.mark.parametrize("name", sorted(GENERATION_2_TIERS))
def test_no_generation_2_entry_changed_place_or_tier(name):
    catalogue = read_catalogue(shipped_directory() / name)
    assert hashlib.sha256(tier_lines(catalogue).encode()).hexdigest() == GENERATION_2_TIERS[name]


def test_every_shipped_file_has_its_tier_pin():
    assert sorted(SHIPPED_TIERS | GENERATION_2_TIERS) == sorted(
        record["file"] for record in read_manifest(shipped_directory())["files"]
    )


def small_file(folder, count: int = 4) -> dict:
    """The first entries of the shipped milligan-hard.json, saved in ``folder`` with their model."""
    catalogue = read_catalogue(shipped_directory() / "milligan-hard.json")
    model = catalogue["difficulty_model"]
    small = catalogue | {"entries": catalogue["entries"][:count], "difficulty_model": model}
    save_catalogue(folder, small)
    return small


def test_rescoring_keeps_order_tier_and_every_other_key_and_still_verifies(tmp_path):
    small = small_file(tmp_path)
    old_model = small["difficulty_model"]
    model = old_model | {
        "rungs": [*old_model["rungs"], old_model["rungs"][1] | {"name": "stronger"}],
        "skills": [*old_model["skills"], 2.0],
        "thresholds": [-1.5, 1.0],  # would put some hard deals in normal ...
        "tiering": {
            "by": "ladder",
            "rungs": 2,
            "skills": old_model["skills"],
            "thresholds": old_model["thresholds"],
        },
    }
    games = {
        e["deal"]: (*map(tuple, e["ladder"]), (number % 2, 1)) for number, e in enumerate(small["entries"])
    }
    changed = rescore_file(tmp_path / "milligan-hard.json", model, lambda entry: games[entry["deal"]])
    new = read_catalogue(tmp_path / "milligan-hard.json")
    assert changed == len(small["entries"]) and new["difficulty_model"] == model
    for old, entry in zip(small["entries"], new["entries"]):
        assert list(entry) == list(old)  # the same keys, in the same order
        assert {k: v for k, v in entry.items() if k not in ("difficulty", "difficulty_se", "ladder")} == {
            k: v for k, v in old.items() if k not in ("difficulty", "difficulty_se", "ladder")
        }
        assert entry["ladder"] == [list(pair) for pair in games[entry["deal"]]]
    won, lost = new["entries"][1], new["entries"][0]  # the stronger rung won entry 1's game
    assert won["difficulty"] < lost["difficulty"]
    assert verify_directory(tmp_path).problems == []


def test_a_rescoring_that_would_move_an_entry_is_refused_whole(tmp_path):
    small = small_file(tmp_path)
    before = (tmp_path / "milligan-hard.json").read_bytes()
    model = small["difficulty_model"] | {"thresholds": [-1.5, 5.0]}  # every hard deal would be normal
    with pytest.raises(YukonError, match=r"entry 1 \(deal \d+\) would move to normal"):
        rescore_file(tmp_path / "milligan-hard.json", model, lambda entry: tuple(map(tuple, entry["ladder"])))
    assert (tmp_path / "milligan-hard.json").read_bytes() == before


def test_a_release_1_file_keeps_its_tiers_by_the_greedy_failure_rate():
    catalogue = read_catalogue(shipped_directory() / "yukon-normal.json")
    model = {
        "skills": [-2.0, 1.0],
        "thresholds": [-1.5, 2.3],
        "tiering": {"by": "score", "thresholds": [0.5, 0.9375]},
    }
    entries = catalogue["entries"][:3]
    new = rescored(catalogue | {"entries": entries}, model, lambda entry: ((32, 32), (0, 0)))
    assert [entry["tier"] for entry in new["entries"]] == ["normal"] * 3
    assert all(entry["difficulty"] < -1.5 for entry in new["entries"])  # easy by the ladder, normal by score
    assert ladder_rating([(32, 32), (0, 0)], model, score=1.0).tier == "hard"
