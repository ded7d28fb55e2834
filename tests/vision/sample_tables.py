"""Tables to render and read back: runs and groups, jokers, ends of runs, every colour."""

TABLES = ["R7 R8 R9 | K5 B5 O5 J | B10 B11 B12 B13",
          "O1 O2 O3 O4 | K9 R9 B9 | R11 R12 R13",
          "K3 K4 K5 K6 K7 | B6 O6 R6 | J O12 O13",
          "B2 B3 B4 | R10 K10 O10 B10 | K12 K13 J"]
