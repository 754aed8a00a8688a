"""The tournament's words in English and French, and its numbers as a French class reads them ("0,75")."""

from __future__ import annotations

from ..i18n import register



#: The tables' and plots' words (a French class reads "taux de victoire", and "0,75" with a decimal comma).
register({
    "en": {"tournament.bot": "bot", "tournament.games": "games", "tournament.wins": "wins",
           "tournament.win_rate": "win rate", "tournament.ci": "95% CI", "tournament.mean_score": "mean score",
           "tournament.forfeits": "forfeits", "tournament.seat": "seat {seat}",
           "tournament.by_seat": "Win rate by seat", "tournament.a_beats_b": "A beats B",
           "tournament.pairs_text": "Head to head (share of meetings where the row bot outscored the column bot)",
           "tournament.pairs_caption": "Head to head: row outscored column",
           "tournament.caption": "{game}: {games} games, {players} players, seed {seed}",
           "tournament.chance": "chance ({rate})",
           "tournament.reading": "{game} ({games} games, {players} players): chance is a win rate of {rate}.",
           "tournament.apart": "Told apart (95% intervals do not overlap): {pairs}.",
           "tournament.close": "Too close to tell (95% intervals overlap): {pairs}.",
           "tournament.above": "Above chance: {bots}.", "tournament.below": "Below chance: {bots}.",
           "tournament.at_chance": "Not told apart from chance: {bots}.", "tournament.none": "none",
           "tournament.replicator_title": "Replicator dynamics: shares of the population",
           "tournament.time": "time", "tournament.share": "share of the population",
           "tournament.nash": "Nash equilibrium (right end)", "tournament.start": "t = 0: ({shares})"},
    "fr": {"tournament.bot": "robot", "tournament.games": "parties", "tournament.wins": "victoires",
           "tournament.win_rate": "taux de victoire", "tournament.ci": "IC à 95 %",
           "tournament.mean_score": "score moyen", "tournament.forfeits": "forfaits", "tournament.seat": "place {seat}",
           "tournament.by_seat": "Taux de victoire par place", "tournament.a_beats_b": "A bat B",
           "tournament.pairs_text": "Face à face (part des rencontres où le robot de la ligne a marqué plus "
                                    "que celui de la colonne)",
           "tournament.pairs_caption": "Face à face : la ligne a marqué plus que la colonne",
           "tournament.caption": "{game} : {games} parties, {players} joueurs, graine {seed}",
           "tournament.chance": "hasard ({rate})",
           "tournament.reading": "{game} ({games} parties, {players} joueurs) : le hasard donne un taux de "
                                 "victoire de {rate}.",
           "tournament.apart": "Départagés (intervalles à 95 % disjoints) : {pairs}.",
           "tournament.close": "Trop proches pour conclure (intervalles à 95 % qui se chevauchent) : {pairs}.",
           "tournament.above": "Au-dessus du hasard : {bots}.", "tournament.below": "Au-dessous du hasard : {bots}.",
           "tournament.at_chance": "Pas départagés du hasard : {bots}.", "tournament.none": "aucun",
           "tournament.replicator_title": "Dynamique du réplicateur : parts de la population",
           "tournament.time": "temps", "tournament.share": "part de la population",
           "tournament.nash": "équilibre de Nash (à droite)", "tournament.start": "t = 0 : ({shares})"},
})


def _number(value: float, spec: str, language: str) -> str:
    """`value` formatted by `spec`, with a decimal comma in French."""
    text = format(value, spec)
    return text.replace(".", ",") if language == "fr" else text


def _interval(low: float, high: float, spec: str, language: str) -> str:
    """`[0.520, 0.799]`; in French `[0,520 ; 0,799]`, since the comma is already the decimal mark."""
    separator = " ; " if language == "fr" else ", "
    return f"[{_number(low, spec, language)}{separator}{_number(high, spec, language)}]"
