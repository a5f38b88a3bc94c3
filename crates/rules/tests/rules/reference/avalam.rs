//! Avalam on a plain 9x9 array: each cell holds a height (0 = empty) and the colour on top.

/// Yellow (player 1) or red (player 2), as the colour on top of a tower.
pub const YELLOW: u8 = 0;
/// Red, player 2.
pub const RED: u8 = 1;

/// An Avalam position. `cells[row][col]`, row 0 is row `1` (bottom), col 0 is column `a`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Avalam {
    /// Height of each tower, 0 for an empty cell.
    pub height: [[u8; 9]; 9],
    /// Colour on top of each tower (meaningless when empty).
    pub top: [[u8; 9]; 9],
    /// 0 when yellow (player 1) is to move, 1 when red is.
    pub side: u8,
    /// The own-colour variant: only your stacks, only onto the opponent's.
    pub own_colour: bool,
}

/// A move from (col, row) to (col, row).
pub type Move = ((usize, usize), (usize, usize));

/// The start board from the issue's picture, row 9 first.
const START_PICTURE: [&str; 9] = [
    ". . y r . . . . .",
    ". y r y r . . . .",
    ". r y r y r y . .",
    ". y r y r y r y r",
    "y r y r . r y r y",
    "r y r y r y r y .",
    ". . y r y r y r .",
    ". . . . r y r y .",
    ". . . . . r y . .",
];

impl Avalam {
    /// The start position from the picture in the rules.
    pub fn start(own_colour: bool) -> Avalam {
        let mut p = Avalam {
            height: [[0; 9]; 9],
            top: [[0; 9]; 9],
            side: 0,
            own_colour,
        };
        for (i, line) in START_PICTURE.iter().enumerate() {
            let row = 8 - i;
            for (col, c) in line.split(' ').enumerate() {
                match c {
                    "y" => p.put(col, row, 1, YELLOW),
                    "r" => p.put(col, row, 1, RED),
                    _ => {}
                }
            }
        }
        p
    }

    /// An empty board, yellow to move.
    pub fn empty(own_colour: bool) -> Avalam {
        Avalam {
            height: [[0; 9]; 9],
            top: [[0; 9]; 9],
            side: 0,
            own_colour,
        }
    }

    /// Puts a tower on a cell.
    pub fn put(&mut self, col: usize, row: usize, height: u8, top: u8) {
        self.height[row][col] = height;
        self.top[row][col] = top;
    }

    /// Whether `from -> to` is legal for the side to move.
    pub fn legal(&self, (fc, fr): (usize, usize), (tc, tr): (usize, usize)) -> bool {
        self.legal_for(self.side, (fc, fr), (tc, tr))
    }

    fn legal_for(&self, side: u8, (fc, fr): (usize, usize), (tc, tr): (usize, usize)) -> bool {
        let hf = self.height[fr][fc];
        let ht = self.height[tr][tc];
        let adjacent = (fc, fr) != (tc, tr) && fc.abs_diff(tc) <= 1 && fr.abs_diff(tr) <= 1;
        if !adjacent || hf == 0 || ht == 0 || hf + ht > 5 {
            return false;
        }
        if self.own_colour {
            self.top[fr][fc] == side && self.top[tr][tc] != side
        } else {
            true
        }
    }

    fn moves_for(&self, side: u8) -> Vec<Move> {
        // Sorted by cell index row*10+col for the source, then the same for the destination.
        let mut out = Vec::new();
        // Only the 3x3 block around a source can hold a destination; rows outer keeps the order.
        for fr in 0..9usize {
            for fc in 0..9usize {
                for tr in fr.saturating_sub(1)..=(fr + 1).min(8) {
                    for tc in fc.saturating_sub(1)..=(fc + 1).min(8) {
                        if self.legal_for(side, (fc, fr), (tc, tr)) {
                            out.push(((fc, fr), (tc, tr)));
                        }
                    }
                }
            }
        }
        out
    }

    /// The legal moves of the side to move, in (source, destination) cell order.
    pub fn moves(&self) -> Vec<Move> {
        self.moves_for(self.side)
    }

    /// Plays a move: the whole source stack goes on top of the destination.
    pub fn play(&mut self, ((fc, fr), (tc, tr)): Move) {
        assert!(self.legal((fc, fr), (tc, tr)));
        self.height[tr][tc] += self.height[fr][fc];
        self.top[tr][tc] = self.top[fr][fc];
        self.height[fr][fc] = 0;
        self.side = 1 - self.side;
    }

    /// Points: one per tower for the colour on top.
    pub fn points(&self) -> [u32; 2] {
        let mut points = [0; 2];
        for row in 0..9 {
            for col in 0..9 {
                if self.height[row][col] > 0 {
                    points[self.top[row][col] as usize] += 1;
                }
            }
        }
        points
    }

    /// The final score when no move exists for either side, `None` while the game goes on.
    pub fn outcome(&self) -> Option<[u32; 2]> {
        let mine = self.moves_for(self.side).len();
        let theirs = self.moves_for(1 - self.side).len();
        // The rules have no pass: check that "the side to move has none" never happens alone.
        assert!(
            !(mine == 0 && theirs > 0),
            "side to move has no move but the opponent has: {}",
            self.format()
        );
        (mine == 0 && theirs == 0).then(|| self.points())
    }

    /// The position in the notation of the rules: nine rows from row 9, then the side.
    pub fn format(&self) -> String {
        let mut rows = Vec::new();
        for row in (0..9).rev() {
            let mut text = String::new();
            for col in 0..9 {
                let h = self.height[row][col];
                if h == 0 {
                    text.push('.');
                } else {
                    text.push(if self.top[row][col] == YELLOW {
                        'y'
                    } else {
                        'r'
                    });
                    if h > 1 {
                        text.push_str(&h.to_string());
                    }
                }
            }
            rows.push(text);
        }
        format!("{} {}", rows.join("/"), self.side + 1)
    }

    /// Leaves of the game tree `depth` plies deep; a finished game is a leaf.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.moves();
        if moves.is_empty() {
            return 1;
        }
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .iter()
            .map(|&m| {
                let mut child = self.clone();
                child.play(m);
                child.perft(depth - 1)
            })
            .sum()
    }
}

/// A move in the notation of the rules: source cell then destination cell, such as `e4e5`.
pub fn format_move(((fc, fr), (tc, tr)): Move) -> String {
    let col = |c: usize| (b'a' + c as u8) as char;
    format!("{}{}{}{}", col(fc), fr + 1, col(tc), tr + 1)
}
