"""Verified deal catalogues per variant and difficulty (Easy and daily-deal modes).

Built from batch results (``solver.store``) in a later issue; every entry will carry a
solution replayed on the reference engine.
"""
