//! Boards of any width and height: colours, pieces, squares, FEN placement fields, algebraic names.

use super::program::{Sym, Symbols};
use std::fmt::Write as _;

/// The two sides. White moves up the board (towards higher ranks).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// First player.
    White = 0,
    /// Second player; its deltas are rotated 180°.
    Black = 1,
}

impl Color {
    /// The other side.
    #[inline]
    pub fn opponent(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
    /// `white` or `black`.
    pub fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }
    /// +1 for white, -1 for black: the factor applied to script deltas.
    #[inline]
    pub fn sign(self) -> i32 {
        match self {
            Color::White => 1,
            Color::Black => -1,
        }
    }
}

/// A piece: colour and kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Its side.
    pub color: Color,
    /// Its kind (`king`, `rook`, `test` …).
    pub kind: Sym,
}

impl Piece {
    #[inline]
    fn encode(self) -> u16 {
        ((self.kind.0 + 1) << 1) | self.color as u16
    }
    #[inline]
    fn decode(cell: u16) -> Option<Piece> {
        if cell == 0 {
            return None;
        }
        let color = if cell & 1 == 0 {
            Color::White
        } else {
            Color::Black
        };
        Some(Piece {
            color,
            kind: Sym((cell >> 1) - 1),
        })
    }
}

/// A square by file `x` (0 = a) and rank `y` (0 = rank 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square {
    /// File index.
    pub x: u16,
    /// Rank index.
    pub y: u16,
}

impl Square {
    /// A square.
    pub const fn new(x: u16, y: u16) -> Square {
        Square { x, y }
    }
}

/// The largest supported width or height.
pub const MAX_SIDE: usize = 1024;

/// A rectangular board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Board {
    width: i32,
    height: i32,
    cells: Vec<u16>,
}

impl Board {
    /// An empty board; sides are clamped to `1..=MAX_SIDE`.
    pub fn new(width: usize, height: usize) -> Board {
        let w = width.clamp(1, MAX_SIDE);
        let h = height.clamp(1, MAX_SIDE);
        Board {
            width: w as i32,
            height: h as i32,
            cells: vec![0; w * h],
        }
    }
    /// Number of files.
    #[inline]
    pub fn width(&self) -> i32 {
        self.width
    }
    /// Number of ranks.
    #[inline]
    pub fn height(&self) -> i32 {
        self.height
    }
    /// True when `(x, y)` is on the board.
    #[inline]
    pub fn contains(&self, x: i32, y: i32) -> bool {
        (x as u32) < self.width as u32 && (y as u32) < self.height as u32
    }
    /// The piece at an on-board coordinate (`None` when empty or off the board).
    #[inline]
    pub fn at(&self, x: i32, y: i32) -> Option<Piece> {
        if !self.contains(x, y) {
            return None;
        }
        Piece::decode(self.cells[(y * self.width + x) as usize])
    }
    /// The piece on a square.
    pub fn get(&self, sq: Square) -> Option<Piece> {
        self.at(sq.x as i32, sq.y as i32)
    }
    /// Puts (or with `None` removes) a piece; ignores off-board squares.
    #[inline]
    pub fn set(&mut self, sq: Square, piece: Option<Piece>) {
        let (x, y) = (sq.x as i32, sq.y as i32);
        if self.contains(x, y) {
            self.cells[(y * self.width + x) as usize] = piece.map_or(0, Piece::encode);
        }
    }
    /// Every occupied square with its piece, rank 1 first, file a first.
    #[inline]
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        let w = self.width as usize;
        self.cells
            .chunks_exact(w)
            .enumerate()
            .flat_map(move |(y, row)| {
                row.iter().enumerate().filter_map(move |(x, &c)| {
                    Piece::decode(c).map(|p| (Square::new(x as u16, y as u16), p))
                })
            })
    }

    /// Reads the placement field of a FEN string (top rank first, `/` between ranks, digit runs
    /// for empty squares, any board size). `KQRBNP` are king, queen, rook, bishop, knight, pawn;
    /// any other letter is a piece named by that letter in lower case. Upper case is white.
    pub fn from_fen(fen: &str, symbols: &mut Symbols) -> Result<Board, String> {
        let field = fen.split_whitespace().next().unwrap_or("");
        if field.is_empty() {
            return Err("empty FEN placement field".into());
        }
        let mut rows: Vec<Vec<Option<Piece>>> = Vec::new();
        for (r, rank) in field.split('/').enumerate() {
            let mut row = Vec::new();
            let mut chars = rank.chars().peekable();
            while let Some(c) = chars.next() {
                if let Some(d) = c.to_digit(10) {
                    let mut n = d as usize;
                    while let Some(e) = chars.peek().and_then(|c| c.to_digit(10)) {
                        n = n * 10 + e as usize;
                        chars.next();
                        if n > MAX_SIDE {
                            break;
                        }
                    }
                    if n == 0 || row.len() + n > MAX_SIDE {
                        return Err(format!(
                            "rank {} of the FEN has a bad empty-square count",
                            r + 1
                        ));
                    }
                    row.extend(std::iter::repeat_n(None, n));
                } else if c.is_ascii_alphabetic() {
                    let color = if c.is_ascii_uppercase() {
                        Color::White
                    } else {
                        Color::Black
                    };
                    let kind = symbols.intern(piece_name(c));
                    row.push(Some(Piece { color, kind }));
                } else {
                    return Err(format!("unexpected `{c}` in the FEN placement field"));
                }
                if row.len() > MAX_SIDE {
                    return Err(format!("the board is wider than {MAX_SIDE} files"));
                }
            }
            rows.push(row);
            if rows.len() > MAX_SIDE {
                return Err(format!("the board has more than {MAX_SIDE} ranks"));
            }
        }
        let width = rows[0].len();
        if let Some((i, r)) = rows.iter().enumerate().find(|(_, r)| r.len() != width) {
            return Err(format!(
                "FEN rank {} (counting from the top) has {} squares, the first has {width}",
                i + 1,
                r.len()
            ));
        }
        if width == 0 {
            return Err("the FEN describes an empty board".into());
        }
        let height = rows.len();
        let mut board = Board::new(width, height);
        for (r, row) in rows.into_iter().enumerate() {
            let y = (height - 1 - r) as u16;
            for (x, p) in row.into_iter().enumerate() {
                board.set(Square::new(x as u16, y), p);
            }
        }
        Ok(board)
    }

    /// The placement field in FEN form (inverse of [`Board::from_fen`] for single-letter kinds).
    pub fn to_fen(&self, symbols: &Symbols) -> String {
        let mut out = String::new();
        for y in (0..self.height).rev() {
            let mut empty = 0;
            for x in 0..self.width {
                match self.at(x, y) {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            let _ = write!(out, "{empty}");
                            empty = 0;
                        }
                        out.push(piece_letter(p, symbols));
                    }
                }
            }
            if empty > 0 {
                let _ = write!(out, "{empty}");
            }
            if y > 0 {
                out.push('/');
            }
        }
        out
    }

    /// Parses an algebraic square (`e4`, `aa10` on wide boards) and checks it is on this board.
    pub fn parse_square(&self, s: &str) -> Result<Square, String> {
        let letters: String = s.chars().take_while(|c| c.is_ascii_lowercase()).collect();
        let digits = &s[letters.len()..];
        if letters.is_empty() || digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!(
                "`{s}` is not a square (expected a file letter and a rank number, like e4)"
            ));
        }
        let mut x: usize = 0;
        for c in letters.bytes() {
            x = x.saturating_mul(26).saturating_add((c - b'a' + 1) as usize);
        }
        let x = x - 1;
        let y = digits.parse::<usize>().unwrap_or(0);
        if y == 0 || x >= self.width as usize || y > self.height as usize {
            return Err(format!(
                "square `{s}` is not on this {}x{} board",
                self.width, self.height
            ));
        }
        Ok(Square::new(x as u16, (y - 1) as u16))
    }
}

/// The algebraic name of a square: files a..z, aa.., ranks from 1.
pub fn square_name(sq: Square) -> String {
    let mut file = String::new();
    let mut n = sq.x as usize + 1;
    while n > 0 {
        n -= 1;
        file.insert(0, (b'a' + (n % 26) as u8) as char);
        n /= 26;
    }
    format!("{file}{}", sq.y as usize + 1)
}

/// The piece name of a FEN letter (either case).
pub fn piece_name(c: char) -> &'static str {
    const LOWER: [&str; 26] = [
        "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o", "p", "q", "r",
        "s", "t", "u", "v", "w", "x", "y", "z",
    ];
    match c.to_ascii_lowercase() {
        'k' => "king",
        'q' => "queen",
        'r' => "rook",
        'b' => "bishop",
        'n' => "knight",
        'p' => "pawn",
        l if l.is_ascii_lowercase() => LOWER[(l as u8 - b'a') as usize],
        _ => "?",
    }
}

/// The FEN letter for a piece (`?` for kinds whose name is not one letter or a standard piece).
pub fn piece_letter(p: Piece, symbols: &Symbols) -> char {
    let c = match symbols.name(p.kind) {
        "king" => 'k',
        "queen" => 'q',
        "rook" => 'r',
        "bishop" => 'b',
        "knight" => 'n',
        "pawn" => 'p',
        n if n.len() == 1 && n.as_bytes()[0].is_ascii_lowercase() => n.as_bytes()[0] as char,
        _ => '?',
    };
    match p.color {
        Color::White => c.to_ascii_uppercase(),
        Color::Black => c,
    }
}
