//! `pion play`: a game against pion in the terminal. It is a front end: it starts a pion engine
//! process and speaks the protocol to it (protocol.md), as a GUI would; it links no search.

mod board;
mod engine;

use std::io::{self, BufRead, IsTerminal, Write};

use anyhow::{Result, bail};
use clap::Args;
use pion_protocol::{Command, EngineScore, Start, Status};
use pion_rules::game::Game;
use pion_rules::{GameKind, with_game};

use board::Style;
use engine::Engine;

/// `println!` that returns the error of a closed stdout (a pipe whose reader left) instead of
/// panicking.
macro_rules! say {
    ($($arg:tt)*) => {
        writeln!(io::stdout(), $($arg)*)?
    };
}

/// The options of `pion play`.
#[derive(Args)]
pub struct Options {
    /// The game.
    #[arg(long, default_value = "avalam", value_parser = pion_protocol::cli::game_parser())]
    game: GameKind,
    /// A rule variant of the game (protocol.md: own-colour or tiebreak5 for Avalam;
    /// grandslam-nocapture or grandslam-capture for Awale).
    #[arg(long)]
    variant: Option<String>,
    /// pion's playing level, from the weakest.
    #[arg(long, default_value = "max",
          value_parser = ["random", "greedy", "basic", "medium", "divine", "max"])]
    level: String,
    /// Your side: 1 moves first, 2 second.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=2))]
    side: u8,
    /// pion's thinking time per move, in milliseconds (also for hints).
    #[arg(long, default_value_t = 1000,
          value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    movetime: u64,
    /// The position to start from, '<board> <side>' as in protocol.md (default: the start).
    #[arg(long)]
    position: Option<String>,
    /// An Aualé game file (OGN) to go on from: Awale under the abapa rules, its moves played.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["game", "variant", "position"])]
    load: Option<std::path::PathBuf>,
    /// Awale endgame databases to use (default: those `pion egtb build` installed).
    #[arg(long, value_name = "DIR")]
    egtb: Option<String>,
}

/// The commands at the prompt, with their usage: what `help` prints.
const COMMANDS: &[(&str, &str)] = &[
    (
        "<move>",
        "play a move: d4e4 in Avalam (the tower on d4 onto e4), C in Awale (a pit)",
    ),
    ("moves", "list your legal moves"),
    ("hint", "pion's suggestion for you, with its score"),
    ("undo", "take back your last move (and pion's reply)"),
    ("show", "draw the board again"),
    ("help", "this list"),
    ("quit", "end the game and print its moves"),
];

/// A game in progress: the engine, the moves so far, and who plays what.
struct Play {
    engine: Engine,
    options: Options,
    /// Where the game started: the start position or a position string.
    start: Start,
    /// The side to move at the start.
    start_side: u8,
    moves: Vec<String>,
    style: Style,
    /// Whether to print each input line after the prompt (stdin is not a terminal).
    echo_input: bool,
}

/// Plays one game on stdin and stdout.
pub fn run(options: Options) -> Result<()> {
    // The engine keeps a variant of the other game for that game's next start (as UGI tools
    // need), so a variant that does not belong to the chosen game is caught here.
    if let Some(variant) = &options.variant {
        let game = options.game;
        let names = with_game!(game, G => G::variant_names());
        if !names.contains(&variant.as_str()) {
            bail!(
                "--variant {variant} is not a variant of {game} (its variants: {})",
                names.join(", ")
            );
        }
    }
    let loaded = match &options.load {
        None => None,
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
            let game = pion_protocol::ogn::read_ogn(&text)
                .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
            Some(game)
        }
    };
    let mut options = options;
    if let Some(game) = &loaded {
        options.game = GameKind::Awale;
        options.variant = Some("grandslam-nocapture".to_string());
        options.position = Some(game.start_position());
    }
    let (start, start_side) = match &options.position {
        None => (Start::StartPos, 1),
        Some(p) => match p.split_whitespace().collect::<Vec<_>>()[..] {
            [board, side] => {
                let start = Start::Notation {
                    board: board.to_string(),
                    side: side.to_string(),
                    fen: false,
                };
                (start, side.parse().unwrap_or(1))
            }
            _ => bail!("--position takes '<board> <side>', as in protocol.md"),
        },
    };
    let mut engine = Engine::start()?;
    let setup = [
        Some(Command::NewGame(Some(options.game))),
        Some(set_option("Level", &options.level)),
        options.variant.as_ref().map(|v| set_option("Variant", v)),
        options.egtb.as_ref().map(|dir| set_option("EgtbPath", dir)),
        options.position.as_ref().map(|_| Command::Position {
            start: start.clone(),
            moves: loaded.as_ref().map_or(Vec::new(), |g| g.moves.clone()),
        }),
    ];
    for command in setup.into_iter().flatten() {
        if let Err(error) = engine.command(&command)? {
            bail!("{error}");
        }
    }
    if options.game == GameKind::Awale
        && options.egtb.is_none()
        && let Some(hint) = pion::egtb::hint()
    {
        say!("note: {hint}");
    }
    let style = Style {
        colour: io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none(),
    };
    let mut play = Play {
        engine,
        options,
        start,
        start_side,
        moves: loaded.map_or(Vec::new(), |g| g.moves),
        style,
        echo_input: !io::stdin().is_terminal(),
    };
    play.game(&mut io::stdin().lock())
}

impl Play {
    /// The player who made move `i` of the game.
    fn mover(&self, i: usize) -> u8 {
        if i.is_multiple_of(2) {
            self.start_side
        } else {
            3 - self.start_side
        }
    }

    /// The game loop: pion's moves, the person's commands, the end.
    fn game(&mut self, input: &mut impl BufRead) -> Result<()> {
        let colour = match (self.options.game, self.options.side) {
            (GameKind::Avalam, 1) => "yellow, y",
            (GameKind::Avalam, _) => "red, r",
            (_, 1) => "pits A to F, the bottom row",
            _ => "pits a to f, the top row",
        };
        say!(
            "{} against pion (level {}, {} ms a move). You are player {} ({colour}). Type help for the commands.",
            self.options.game,
            self.options.level,
            self.options.movetime,
            self.options.side
        );
        self.draw()?;
        loop {
            let status = self.engine.status()?;
            if status.turn.is_none() {
                say!("{}", result(&status, self.options.side));
                break;
            }
            if status.turn != Some(self.options.side) {
                self.engine_moves()?;
                continue;
            }
            write!(io::stdout(), "your move> ")?;
            io::stdout().flush()?;
            let mut line = String::new();
            if input.read_line(&mut line)? == 0 {
                say!("");
                say!("End of input: the game stops here.");
                break;
            }
            if self.echo_input {
                // A terminal shows what was typed; in a transcript of piped input, show it here.
                say!("{}", line.trim_end());
            }
            let words: Vec<&str> = line.split_whitespace().collect();
            match words[..] {
                [] => {}
                ["quit"] => break,
                ["help"] => {
                    for (name, usage) in COMMANDS {
                        say!("  {name:<8} {usage}");
                    }
                }
                ["show"] => self.draw()?,
                ["moves"] => {
                    let legal = self.engine.legal()?;
                    say!("{}", wrap_words("your legal moves:", &legal, 72));
                }
                ["hint"] => self.hint()?,
                ["undo"] => self.undo()?,
                [word] if !COMMANDS.iter().any(|(name, _)| *name == word) => {
                    let before = self.captured()?;
                    match self.engine.command(&Command::Play(word.to_string()))? {
                        Ok(()) => {
                            self.moves.push(word.to_string());
                            self.draw()?;
                            self.announce_capture(before, "you capture")?;
                        }
                        // The board is still on screen: one line, no redraw.
                        Err(reason) => say!("{reason} (type moves for your legal moves)"),
                    }
                }
                _ => say!(
                    "'{}' is not a move or a command; type help for the commands",
                    line.trim()
                ),
            }
        }
        say!("The moves: {}", self.replay());
        Ok(())
    }

    /// pion searches and plays its move.
    fn engine_moves(&mut self) -> Result<()> {
        say!("pion is thinking ({} ms)...", self.options.movetime);
        let before = self.captured()?;
        let answer = self.engine.search(self.options.movetime)?;
        if let Err(error) = self.engine.command(&Command::Play(answer.best.clone()))? {
            bail!("pion's move {} was refused: {error}", answer.best);
        }
        let score = answer.score.map(|s| format!(" ({})", describe(s)));
        say!("pion plays {}{}", answer.best, score.unwrap_or_default());
        self.moves.push(answer.best);
        self.draw()?;
        self.announce_capture(before, "pion captures")
    }

    /// The seeds each player has captured (Awale; none in Avalam), from the engine's position.
    fn captured(&mut self) -> Result<Option<[u32; 2]>> {
        if self.options.game != GameKind::Awale {
            return Ok(None);
        }
        Ok(board::awale_captures(&self.engine.position()?))
    }

    /// Says how many seeds the move just played took, if it took any.
    fn announce_capture(&mut self, before: Option<[u32; 2]>, who: &str) -> Result<()> {
        let (Some(before), Some(after)) = (before, self.captured()?) else {
            return Ok(());
        };
        let gained: u32 = (0..2).map(|k| after[k].saturating_sub(before[k])).sum();
        if gained > 0 {
            let s = if gained == 1 { "" } else { "s" };
            say!("{who} {gained} seed{s}.");
        }
        Ok(())
    }

    /// pion's suggestion for the person, searched at level max whatever the opponent's level.
    fn hint(&mut self) -> Result<()> {
        let level = self.options.level.clone();
        if level != "max" {
            self.setoption("Level", "max")?;
        }
        let answer = self.engine.search(self.options.movetime);
        if level != "max" {
            self.setoption("Level", &level)?;
        }
        let answer = answer?;
        let score = answer.score.map(|s| format!(" ({})", describe(s)));
        say!("hint: {}{}", answer.best, score.unwrap_or_default());
        Ok(())
    }

    fn setoption(&mut self, name: &str, value: &str) -> Result<()> {
        match self.engine.command(&set_option(name, value))? {
            Ok(()) => Ok(()),
            Err(error) => bail!("{error}"),
        }
    }

    /// Takes back pion's replies and the person's last move.
    fn undo(&mut self) -> Result<()> {
        let human = self.options.side;
        let Some(last) = (0..self.moves.len())
            .rev()
            .find(|&i| self.mover(i) == human)
        else {
            say!("nothing to undo: you have not moved yet");
            return Ok(());
        };
        self.moves.truncate(last);
        if let Err(error) = self.engine.command(&self.replay())? {
            bail!("the engine refused the game's moves: {error}");
        }
        self.draw()
    }

    /// The game as a `position` command that replays it.
    fn replay(&self) -> Command {
        Command::Position {
            start: self.start.clone(),
            moves: self.moves.clone(),
        }
    }

    /// Draws the board, the last move marked, and says whose turn it is.
    fn draw(&mut self) -> Result<()> {
        let position = self.engine.position()?;
        let last = self.moves.last().map(String::as_str);
        let drawn = match self.options.game {
            GameKind::Avalam => {
                let shape = board::avalam_shape(self.options.position.as_deref());
                board::avalam(&position, last, &shape, self.style)
            }
            GameKind::Awale => board::awale(&position, last, self.style),
        };
        match drawn {
            Some(drawn) => write!(io::stdout(), "\n{drawn}")?,
            None => bail!("the engine's position '{position}' cannot be drawn"),
        }
        if let Some(last) = last {
            let who = if self.mover(self.moves.len() - 1) == self.options.side {
                "you"
            } else {
                "pion"
            };
            say!("last move: {last} ({who})");
        }
        let status = self.engine.status()?;
        if status.turn.is_some() {
            let captured = board::awale_captures(&position);
            say!(
                "{}",
                score_sentence(status.score, captured, self.options.side)
            );
        }
        Ok(())
    }
}

/// The score from the player's side (`side`): in Awale the seeds captured, then what each
/// would have if the game ended now; in Avalam the towers each has on top.
fn score_sentence(score: [u32; 2], captured: Option<[u32; 2]>, side: u8) -> String {
    let mine = |pair: [u32; 2]| {
        if side == 1 {
            (pair[0], pair[1])
        } else {
            (pair[1], pair[0])
        }
    };
    let (you, pion) = mine(score);
    match captured {
        Some(pair) => {
            let (c_you, c_pion) = mine(pair);
            format!(
                "captured: you {c_you}, pion {c_pion}; with the seeds on each side, the result if the game ended now: you {you}, pion {pion}"
            )
        }
        None => format!("towers on top: you {you}, pion {pion} (the result if the game ended now)"),
    }
}

/// `head` and the words after it, in lines of at most `width` characters, no word broken.
fn wrap_words(head: &str, words: &[String], width: usize) -> String {
    let mut out = head.to_string();
    let mut line = head.len();
    for word in words {
        if line + 1 + word.len() > width {
            out.push_str("\n ");
            line = 1;
        } else {
            out.push(' ');
            line += 1;
        }
        out.push_str(word);
        line += word.len();
    }
    out
}

/// `setoption name <name> value <value>`.
fn set_option(name: &str, value: &str) -> Command {
    Command::SetOption {
        name: name.to_string(),
        value: Some(value.to_string()),
    }
}

/// A search score for a person, for the side that searched: the protocol crate's printer for
/// people.
fn describe(score: EngineScore) -> String {
    format!("score {}", score.human())
}

/// The result of a finished game in words, from the engine's `status`.
fn result(status: &Status, human: u8) -> String {
    let [p1, p2] = status.score;
    let why = match status.reason {
        Some("nomoves") => "no move left",
        Some("captures") => "more than half the seeds captured",
        Some("repetition") => "a position repeated",
        _ => "the game ended",
    };
    let (winner, loser) = if status.winner == Some(2) {
        (p2, p1)
    } else {
        (p1, p2)
    };
    let margin = i64::from(winner) - i64::from(loser);
    let by = match status.tiebreak {
        Some([t1, t2]) if margin == 0 => {
            let (most, least) = if status.winner == Some(2) {
                (t2, t1)
            } else {
                (t1, t2)
            };
            format!("on the tie-break, {most} to {least} towers 5 high")
        }
        _ => format!("by {margin}"),
    };
    match status.winner {
        Some(w) if w == human => {
            format!("Game over ({why}): you win, {winner} to {loser}, {by}.")
        }
        Some(_) => format!("Game over ({why}): pion wins, {winner} to {loser}, {by}."),
        None => format!("Game over ({why}): a draw, {p1} to {p2}."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pion_protocol::Score;

    #[test]
    fn moves_are_listed_without_a_move_broken_across_lines() {
        let moves: Vec<String> = (0..60)
            .map(|i| format!("a{}b{}", i % 9 + 1, i % 9 + 1))
            .collect();
        let text = wrap_words("your legal moves:", &moves, 72);
        assert!(text.lines().all(|l| l.len() <= 72), "{text}");
        let words: Vec<&str> = text.split_whitespace().skip(3).collect();
        assert_eq!(words, moves.iter().map(String::as_str).collect::<Vec<_>>());
        assert!(text.lines().count() > 1);
    }

    #[test]
    fn results_and_scores_in_words() {
        fn over(line: &str) -> Status {
            match pion_protocol::parse_heard(line) {
                pion_protocol::Heard::Status(status) => status,
                other => panic!("{line}: {other:?}"),
            }
        }
        assert_eq!(
            result(&over("status over winner 1 score 14 10 reason nomoves"), 1),
            "Game over (no move left): you win, 14 to 10, by 4."
        );
        assert_eq!(
            result(&over("status over winner 2 score 23 25 reason captures"), 1),
            "Game over (more than half the seeds captured): pion wins, 25 to 23, by 2."
        );
        assert_eq!(
            result(
                &over("status over winner 2 score 9 9 reason nomoves tiebreak 1 3"),
                1
            ),
            "Game over (no move left): pion wins, 9 to 9, on the tie-break, 3 to 1 towers 5 high."
        );
        assert_eq!(
            result(&over("status over draw score 24 24 reason repetition"), 1),
            "Game over (a position repeated): a draw, 24 to 24."
        );
        assert_eq!(describe(Score::Centi(-150).into()), "score -1.50");
        assert_eq!(
            describe(EngineScore::new(Score::Win(3), true)),
            "score >=win 3"
        );
        assert_eq!(
            score_sentence([23, 25], Some([3, 5]), 2),
            "captured: you 5, pion 3; with the seeds on each side, the result if the game ended now: you 25, pion 23"
        );
        assert_eq!(
            score_sentence([12, 10], None, 1),
            "towers on top: you 12, pion 10 (the result if the game ended now)"
        );
        assert_eq!(describe(Score::Draw.into()), "score draw");
        assert_eq!(describe(Score::Loss(2).into()), "score loss 2");
    }
}
