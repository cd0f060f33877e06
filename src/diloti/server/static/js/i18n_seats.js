// The words of the seats and the marks on the table: the computer's levels by their server names, the dealer's and
// a group's one-letter marks, the hand-over's countdown (merged into i18n.js). A Greek page shows no English word.

export const SEAT_STRINGS = {
  en: {
    "level.random": "random",
    "level.greedy": "greedy",
    "level.heuristic": "heuristic",
    "level.expert": "expert",
    "level.master": "master",
    "level.learned": "learned (neural net)",
    "table.dealer_mark": "D",
    "move.group_mark": "G",
    "away.hand_over_in": "To the computer in {s} s",
    "away.hand_over_title": "{name} has been away: the other players may hand the seat to the computer",
  },
  el: {
    "level.random": "τυχαίος",
    "level.greedy": "άπληστος",
    "level.heuristic": "ευρετικός",
    "level.expert": "έμπειρος",
    "level.master": "μάστορας",
    "level.learned": "νευρωνικό δίκτυο",
    "table.dealer_mark": "Μ",
    "move.group_mark": "ομ",
    "away.hand_over_in": "Στον υπολογιστή σε {s} δ.",
    "away.hand_over_title": "{name}: λείπει· οι άλλοι παίκτες μπορούν να δώσουν τη θέση στον υπολογιστή",
  },
};
