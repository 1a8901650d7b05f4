"""Trio Whist's score sheet (``leagues.paper.MatchPaperSheet``): Cutthroat's line, the
declarer, the bid and the declarer's tricks, as a match each for themselves."""

from leagues.paper.cutthroat_bid_whist import MATCH_TALLY as MATCH_TALLY
from leagues.paper.cutthroat_bid_whist import DealForm as DealForm
from leagues.paper.cutthroat_bid_whist import describe as describe
from leagues.paper.cutthroat_bid_whist import engine_points as engine_points
from leagues.paper.cutthroat_bid_whist import match_result as match_result
from leagues.paper.cutthroat_bid_whist import score as score
from leagues.paper.cutthroat_bid_whist import sheet_lines as sheet_lines
