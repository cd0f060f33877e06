// The rules, short, in both languages (the contract is RULES.md in the project).

export const RULES = {
  en: [
    ["Aim", ["Capture cards from the table. Points per round: 4 for most cards (none at 26–26), 1 per ace, 2 for the 10♦, 1 for the 2♣, 10 per xeri. The first side to reach the target wins."]],
    ["Deal", ["2 players: 6 cards each and 4 face up on the table, four deals per round. 4 players: partners sit opposite (seats 1+3 against 2+4), two deals per round."]],
    ["Your turn", ["Play one card from your hand in exactly one way:",
      "• Capture: a numeral takes loose cards of its value, sets of loose cards that sum to it, and declarations of its value — any choice of them. A J, Q or K takes one loose card of its own rank.",
      "• Plain declaration: add your card to loose numerals to make a pile of their sum (at most 10). You must still hold a card of that value.",
      "• Raise: add your card to an opponent's plain declaration; the new sum (at most 10) must be in your hand. The pile becomes yours.",
      "• Group declaration: join your card with other cards or piles of value v into one pile of v (e.g. 4 on a loose 4 as a group of 4s, rather than a plain 8). You must still hold a v. Only a v captures it.",
      "• Lay the card on the table (not allowed while you own a declaration, nor for a face card when one of its rank lies loose)."]],
    ["Declarations", ["While you own a declaration you may only capture or add to it as a group, and you must keep a card of its value until it is captured or taken over."]],
    ["Xeri", ["Clearing the whole table with a capture is a xeri, worth 10 points (not with the very first card of the round)."]],
    ["End of round", ["When the cards run out, the cards left on the table go to the side that captured last."]],
    ["Playing here", ["Tap a card in your hand, then the table cards or piles it should take or join; the buttons show the legal moves that fit. With the keyboard: 1–8 pick a hand card, letters pick table items, Enter plays, Esc clears, or type a move such as 9D x 4H 5C, 5S + 3C = 8, 4D + 4C = 4G."]],
  ],
  el: [
    ["Σκοπός", ["Μαζεύετε φύλλα από το τραπέζι. Πόντοι ανά γύρο: 4 για τα περισσότερα φύλλα (κανείς στο 26–26), 1 για κάθε άσο, 2 για το 10♦, 1 για το 2♣, 10 για κάθε ξερή. Νικά η ομάδα που φτάνει πρώτη τον στόχο."]],
    ["Μοίρασμα", ["2 παίκτες: 6 φύλλα ο καθένας και 4 ανοιχτά στο τραπέζι, τέσσερα μοιράσματα ανά γύρο. 4 παίκτες: οι συμπαίκτες κάθονται απέναντι (θέσεις 1+3 εναντίον 2+4), δύο μοιράσματα ανά γύρο."]],
    ["Η σειρά σας", ["Παίζετε ένα φύλλο από το χέρι σας με έναν μόνο τρόπο:",
      "• Μάζεμα: ένα αριθμητικό φύλλο παίρνει ελεύθερα φύλλα της αξίας του, συνδυασμούς που αθροίζουν σε αυτήν και δηλώσεις αυτής της αξίας — όποια από αυτά θέλετε. Βαλές, ντάμα ή ρήγας παίρνει ένα ελεύθερο φύλλο του ίδιου βαθμού.",
      "• Απλή δήλωση: ενώνετε το φύλλο σας με ελεύθερα φύλλα σε στοίβα με το άθροισμά τους (ως 10). Πρέπει να κρατάτε φύλλο αυτής της αξίας.",
      "• Ανέβασμα: προσθέτετε το φύλλο σας σε απλή δήλωση αντιπάλου· το νέο άθροισμα (ως 10) πρέπει να το έχετε στο χέρι. Η στοίβα γίνεται δική σας.",
      "• Ομαδική δήλωση: ενώνετε το φύλλο σας με άλλα φύλλα ή στοίβες αξίας v σε μία στοίβα του v (π.χ. 4 πάνω σε ελεύθερο 4 ως ομάδα των 4, αντί για απλή 8). Πρέπει να κρατάτε ένα v· μόνο ένα v τη μαζεύει.",
      "• Ρίχνετε το φύλλο στο τραπέζι (όχι όσο έχετε δήλωση, ούτε φιγούρα όταν υπάρχει ελεύθερη φιγούρα του ίδιου βαθμού)."]],
    ["Δηλώσεις", ["Όσο έχετε δήλωση μπορείτε μόνο να μαζέψετε ή να την κάνετε ομάδα, και κρατάτε φύλλο της αξίας της μέχρι να μαζευτεί ή να την πάρει άλλος."]],
    ["Ξερή", ["Όταν ένα μάζεμα αδειάζει όλο το τραπέζι είναι ξερή, 10 πόντοι (όχι με το πρώτο φύλλο του γύρου)."]],
    ["Τέλος γύρου", ["Όταν τελειώσουν τα φύλλα, όσα μένουν στο τραπέζι πάνε σε όποιον μάζεψε τελευταίος."]],
    ["Πώς παίζετε εδώ", ["Πατήστε ένα φύλλο του χεριού σας και μετά τα φύλλα ή τις στοίβες του τραπεζιού που θα πάρει ή θα ενώσει· τα κουμπιά δείχνουν τις νόμιμες κινήσεις που ταιριάζουν. Με πληκτρολόγιο: 1–8 φύλλο του χεριού, γράμματα για το τραπέζι, Enter παίζει, Esc καθαρίζει, ή γράψτε κίνηση όπως 9D x 4H 5C, 5S + 3C = 8, 4D + 4C = 4G."]],
  ],
};
