"""The tuning benches: they measure the thresholds the computer players call from and write
them to ``games/rules/computer/tuned_calls.json``, which the computer players read (``bidding.thresholds``).

- :mod:`.calls` (``bench/tune_calls.py``): the contracts a hand plays alone, every other seat
  passing, and Bid Whist's books model;
- :mod:`.bids` (``bench/tune_bids.py``): Bid Whist's bids and kitty, in real auctions;
- :mod:`.auctions` (``bench/tune_auctions.py``): Solo's and Belgian Whist's partnership calls,
  piccolo and petite misère, in real auctions;
- :mod:`.thresholds`: what they share: the best threshold of a sample, its figures by band,
  the held-out check;
- :mod:`.tuned_file`: the one reader and writer of the file for the benches.
"""
