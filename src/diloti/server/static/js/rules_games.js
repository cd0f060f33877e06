// The parent games' rules, short, in both languages (the contracts are docs/RULES-XERI.md and
// docs/RULES-KONTSINA.md in the project).

export const GAME_RULES = {
  xeri: {
    en: [
      ["Aim", ["Take the pile. Points per round: 3 for most cards (none at 26–26), 1 for each ace, king, queen, jack and 10, 1 more for the 10♦, 1 for the 2♣, 10 for each xeri. The side with more points wins the round; the side that wins more rounds (10 by default) wins the game — or, with the option, the first to the points target."]],
      ["Deal", ["6 cards each and 4 on the pile, the last face up on top (a jack on top, or a pair on top, and the pile is dealt again). Later deals give 6 more each. 4 players play as partners, sitting opposite."]],
      ["Your turn", ["Play any card onto the pile. A card of the top card's rank takes the whole pile; a jack takes any pile. Otherwise the card stays on top."]],
      ["Xeri", ["Taking a pile of one card with a card of its rank is a xeri: 10 points (a jack on a lone jack too; 20 with the option). A jack on a lone card of another rank takes it but is no xeri."]],
      ["End of round", ["When the cards run out, the pile goes to the side that took last."]],
      ["Playing here", ["Tap a card, then Play: the button says whether it takes the pile. With the keyboard: 1–6 pick a card, Enter plays; or type the card, such as 7H."]],
    ],
    el: [
      ["Σκοπός", ["Μαζεύετε τη στοίβα. Πόντοι ανά γύρο: 3 για τα περισσότερα φύλλα (κανείς στο 26–26), 1 για κάθε άσο, ρήγα, ντάμα, βαλέ και δεκάρι, 1 ακόμη για το 10♦, 1 για το 2♣, 10 για κάθε ξερή. Τον γύρο τον κερδίζει όποιος έχει τους περισσότερους πόντους· την παρτίδα όποιος κερδίσει τους περισσότερους γύρους (10 αρχικά) — ή, με την επιλογή, όποιος φτάσει πρώτος τους πόντους του στόχου."]],
      ["Μοίρασμα", ["6 φύλλα ο καθένας και 4 στη στοίβα, το τελευταίο ανοιχτό από πάνω (βαλές ή ζευγάρι από πάνω, και η στοίβα ξαναμοιράζεται). Στα επόμενα μοιράσματα 6 ακόμη ο καθένας. Οι 4 παίζουν ζευγάρια, οι συμπαίκτες απέναντι."]],
      ["Η σειρά σας", ["Ρίχνετε όποιο φύλλο θέλετε στη στοίβα. Φύλλο ίδιου βαθμού με το πάνω φύλλο παίρνει όλη τη στοίβα· ο βαλές παίρνει κάθε στοίβα. Αλλιώς το φύλλο μένει από πάνω."]],
      ["Ξερή", ["Όταν μαζεύετε στοίβα ενός φύλλου με φύλλο του ίδιου βαθμού κάνετε ξερή: 10 πόντοι (και ο βαλές σε μόνο βαλέ· 20 με την επιλογή). Βαλές σε μόνο φύλλο άλλου βαθμού το μαζεύει, αλλά δεν είναι ξερή."]],
      ["Τέλος γύρου", ["Όταν τελειώσουν τα φύλλα, η στοίβα πάει σε όποιον μάζεψε τελευταίος."]],
      ["Πώς παίζετε εδώ", ["Πατήστε ένα φύλλο και μετά «Παίξε»: το κουμπί λέει αν παίρνει τη στοίβα. Με πληκτρολόγιο: 1–6 φύλλο, Enter παίζει· ή γράψτε το φύλλο, π.χ. 7H."]],
    ],
  },
  kontsina: {
    en: [
      ["Aim", ["Capture cards from the table. Points per round: 2 for most cards, 1 for most clubs (a shared first place scores nothing), 1 for the 2♣, 1 for the 10♦. The game goes to 21 (or the table's target); the highest total then wins. Each player scores alone unless the table plays in partnerships."]],
      ["Deal", ["4 cards each and 4 face up on the table; later deals give 4 more each. 2, 3 or 4 players."]],
      ["Your turn", ["Play one card in one way:",
        "• Match: take one table card of the same rank (the only capture for J, Q, K).",
        "• Sum: a numeral takes one set of table numerals that add up to its value (aces count 1).",
        "• Lay the card on the table. Capturing is never forced, unless the table chose forced capture."]],
      ["End of round", ["When the cards run out, the table goes to the side that captured last. There is no xeri."]],
      ["Playing here", ["Tap a card in your hand, then the table cards it should take; the buttons show the legal moves that fit. A card with one move only is ready at once. With the keyboard: 1–4 pick a hand card, letters pick table cards, Enter plays; or type a move such as 9D x 4H 5C."]],
    ],
    el: [
      ["Σκοπός", ["Μαζεύετε φύλλα από το τραπέζι. Πόντοι ανά γύρο: 2 για τα περισσότερα φύλλα, 1 για τα περισσότερα σπαθιά (ισοπαλία στην πρώτη θέση: κανείς), 1 για το 2♣, 1 για το 10♦. Η παρτίδα πάει στους 21 (ή στον στόχο του τραπεζιού)· νικά το μεγαλύτερο σύνολο. Ο καθένας μετράει μόνος του, εκτός αν το τραπέζι παίζει ζευγάρια."]],
      ["Μοίρασμα", ["4 φύλλα ο καθένας και 4 ανοιχτά στο τραπέζι· στα επόμενα μοιράσματα 4 ακόμη ο καθένας. 2, 3 ή 4 παίκτες."]],
      ["Η σειρά σας", ["Παίζετε ένα φύλλο με έναν τρόπο:",
        "• Ταίριασμα: παίρνετε ένα φύλλο του τραπεζιού ίδιου βαθμού (το μόνο μάζεμα για βαλέ, ντάμα, ρήγα).",
        "• Άθροισμα: ένα αριθμητικό φύλλο παίρνει έναν συνδυασμό αριθμητικών που αθροίζουν στην αξία του (ο άσος μετράει 1).",
        "• Ρίχνετε το φύλλο στο τραπέζι. Το μάζεμα δεν είναι υποχρεωτικό, εκτός αν το τραπέζι διάλεξε υποχρεωτικό μάζεμα."]],
      ["Τέλος γύρου", ["Όταν τελειώσουν τα φύλλα, το τραπέζι πάει σε όποιον μάζεψε τελευταίος. Δεν υπάρχει ξερή."]],
      ["Πώς παίζετε εδώ", ["Πατήστε ένα φύλλο του χεριού σας και μετά τα φύλλα του τραπεζιού που θα πάρει· τα κουμπιά δείχνουν τις νόμιμες κινήσεις που ταιριάζουν. Φύλλο με μία μόνο κίνηση είναι έτοιμο αμέσως. Με πληκτρολόγιο: 1–4 φύλλο του χεριού, γράμματα για το τραπέζι, Enter παίζει· ή γράψτε κίνηση όπως 9D x 4H 5C."]],
    ],
  },
};
