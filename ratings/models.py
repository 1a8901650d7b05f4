"""Stored ratings: each player's current rating per game and scope, and its history by day.

A *scope* is where a rating's results come from, so that ratings follow each club's
visibility: ``site`` (online tables and public clubs' leagues) or ``club-<pk>`` (a
members-only club's own leagues, seen only by its members).  A *player* is ``u:<user pk>``
(a site user: every club membership they claimed and their online hands), ``m:<member pk>`` (a
club member without a login) or ``computer:<level>`` (the computer players of one level).
Everything here is derived: ``manage.py rate --rebuild`` writes it again from the results.
"""

from django.db import models


class Rating(models.Model):
    scope = models.CharField(max_length=24)
    game = models.CharField(max_length=20)
    player = models.CharField(max_length=24)
    mu = models.FloatField()
    sigma = models.FloatField()
    results = models.PositiveIntegerField(default=0)  # results rated
    online = models.PositiveIntegerField(default=0)  # of which hands at online tables
    day = models.DateField()  # of the last result rated
    # The first few people with an account met on another side (ratings.core.Standing.met):
    # the site's list shows a person once they have met enough different people.
    met = models.JSONField(default=list, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["scope", "game", "player"],
                                               name="one_rating_per_player")]
        indexes = [models.Index(fields=["scope", "game"])]

    def __str__(self):
        return f"{self.scope} {self.game} {self.player}: {self.mu:.2f} ± {self.sigma:.2f}"


class RatingPoint(models.Model):
    """A player's rating at the end of a day they played: the history, and where the
    incremental path starts again after a change on that day or later."""

    scope = models.CharField(max_length=24)
    game = models.CharField(max_length=20)
    player = models.CharField(max_length=24)
    day = models.DateField()
    mu = models.FloatField()
    sigma = models.FloatField()
    results = models.PositiveIntegerField(default=0)
    online = models.PositiveIntegerField(default=0)
    met = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["scope", "game", "player", "day"]
        constraints = [models.UniqueConstraint(fields=["scope", "game", "player", "day"],
                                               name="one_rating_point_per_day")]
        indexes = [models.Index(fields=["scope", "game", "day"])]

    def __str__(self):
        return f"{self.scope} {self.game} {self.player} {self.day}: {self.mu:.2f}"


class RatingStream(models.Model):
    """One row per scope and game: locked while its ratings are rewritten, so two changes at
    once re-rate one after the other."""

    scope = models.CharField(max_length=24)
    game = models.CharField(max_length=20)
    events = models.PositiveIntegerField(default=0)
    rebuilt_at = models.DateTimeField(null=True, blank=True)
    # The order key (ratings.core.Event.key) of the last result rated: a new result after it
    # is one update of its players (ratings.store.append), one before it re-rates from its day.
    # Empty: not known (the next result re-rates from its day, which sets it).
    last_key = models.CharField(max_length=64, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["scope", "game"],
                                               name="one_stream_per_scope_and_game")]

    def __str__(self):
        return f"{self.scope} {self.game}"
