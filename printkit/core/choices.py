"""What a user may ask printkit for, in words and numbers: a build's parts, the starters, the export formats and
shops, and the bounds of a command's counts. Kept free of imports, so the command line's help reads them without
loading the pipeline that acts on them."""

# what `printkit build --only` can choose; the bundle is made of the first four
PARTS = ("cards", "counters", "boards", "rules", "bundle", "reference")
STARTERS = ("deck", "types", "engine", "play")  # --starter: plain cards, two kinds, its own engine, rules as data
FORMATS = ("png", "tts", "printshop", "csv", "xlsx")  # printkit export's
SERVICES = ("mpc", "drivethrucards", "gamecrafter")  # the shops of printkit's own printshops.yaml

MAX_COPIES = 100  # build --copies: each card printed this many times
MAX_GAMES = 100_000  # a run's games: its records are held together, about a kilobyte each
MAX_WORKERS = 64
MAX_TRIALS = 10_000  # tune's points
MAX_SEEDS = 10_000  # engine-test's games: each is checked at every step, several times slower than a played one
MAX_LADDER = 10_000  # games a rung of the skill ladder, or a card's restricted play, may be given
LADDER_GAMES = 10  # games a rung of the skill ladder plays the rung below: each MCTS game is slow
LADDER_LONGEST = 2_000  # mean actions of the report's games past which the ladder is left out unless asked for
CARD_VALUE_GAMES = 100  # games a card's restricted play takes: each card's interval is about +-10 points
