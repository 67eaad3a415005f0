"""One statement over a player's seats for the profile (games/web/profile_stats.py): their
match counts, their latest matches' ids and the people they met.

A busy player sat in hundreds of matches; each of these numbers reads the same seats
joined to their matches and tables, so PostgreSQL reads them once (the `mine` CTE) and
answers all three (docs/performance.md: three such scans were a third of the page).
The definitions are stats.py's.
"""

from django.db import connection

_SEATS = """
WITH mine AS MATERIALIZED (
    SELECT me.match_id, me.position %% 2 AS team, me.failed_throws,
        m.winner_team, m.aborted, m.started_at, t.is_private
    FROM games_matchplayer me
    JOIN games_match m ON m.id = me.match_id
    JOIN games_table t ON t.id = m.table_id
    WHERE me.user_id = %(user)s
), counted AS (
    SELECT COUNT(DISTINCT match_id) FILTER (WHERE NOT aborted AND winner_team IS NOT NULL) AS played,
        COUNT(DISTINCT match_id) FILTER (WHERE NOT aborted AND winner_team = team) AS won,
        SUM(failed_throws) AS failed_throws
    FROM mine
), picked AS (
    -- the latest match, and the latest of each kind of table (public, private)
    SELECT match_id FROM (
        SELECT match_id,
            ROW_NUMBER() OVER (ORDER BY started_at DESC, match_id DESC) AS overall,
            ROW_NUMBER() OVER (PARTITION BY is_private ORDER BY started_at DESC, match_id DESC) AS in_kind
        FROM mine
    ) newest
    WHERE overall = 1 OR in_kind <= %(recent)s
), met AS (
    -- the others at finished public matches, per person and side; RANK by count keeps
    -- everyone who can still make the cut (ties included), so only their names are read
    SELECT other.user_id, other.position %% 2 = mine.team AS partner, COUNT(*) AS matches,
        COUNT(*) FILTER (WHERE mine.winner_team = mine.team) AS won,
        RANK() OVER (PARTITION BY other.position %% 2 = mine.team ORDER BY COUNT(*) DESC) AS by_count
    FROM mine JOIN games_matchplayer other ON other.match_id = mine.match_id
    WHERE NOT mine.is_private AND NOT mine.aborted AND mine.winner_team IS NOT NULL
        AND other.user_id IS NOT NULL AND other.user_id <> %(user)s
    GROUP BY 1, 2
), ranked AS (
    SELECT named.*, ROW_NUMBER() OVER (PARTITION BY partner ORDER BY matches DESC, username) AS place
    FROM (
        SELECT partner, (SELECT username FROM auth_user WHERE id = met.user_id) AS username, matches, won
        FROM met WHERE by_count <= %(shown)s
    ) named
)
-- three kinds of rows in one answer, in plain SQL that SQLite (the embedded default) runs too:
-- 0: the counts; 1: a picked match; 2: a person met (partner 1 / opponent 0, in place order)
SELECT 0 AS kind, played, won, failed_throws, NULL AS username, 0 AS place FROM counted
UNION ALL SELECT 1, match_id, NULL, NULL, NULL, 0 FROM picked
UNION ALL SELECT 2, CASE WHEN partner THEN 1 ELSE 0 END, matches, won, username, place
    FROM ranked WHERE place <= %(shown)s
ORDER BY 1, 2 DESC, 6
"""


def seat_summary(user, *, recent: int, shown: int) -> dict:
    """played / won (finished matches; won by the user's team), failed_throws (None when
    no seat), picked (ids: the latest match and the latest `recent` at public and at
    private tables), partners / opponents (the `shown` met most often in finished matches
    at public tables, ties by name: {"user__username", "matches", "won"} — won by the user)."""
    with connection.cursor() as cursor:
        cursor.execute(_SEATS, {"user": user.pk, "recent": recent, "shown": shown})
        rows = cursor.fetchall()
    summary: dict = {"picked": [], "partners": [], "opponents": []}
    for kind, first, second, third, name, _place in rows:
        if kind == 0:
            summary.update(played=first, won=second, failed_throws=third)
        elif kind == 1:
            summary["picked"].append(first)
        else:
            summary["partners" if first else "opponents"].append(
                {"user__username": name, "matches": second, "won": third}
            )
    return summary
