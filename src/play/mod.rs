//! `pion play`: a game against pion in the terminal. It is a front end: it starts a pion engine
//! process and speaks the protocol to it (protocol.md), as a GUI would; it links no search.

mod board;
mod engine;

use std::io::{self, BufRead, IsTerminal, Write};

use anyhow::{Result, bail};
use clap::Args;
use pion_protocol::{Command, Score, Start, Status};
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
    /// A rule variant of the game (protocol.md: own-colour for Avalam; grandslam-nocapture or
    /// grandslam-capture for Awale).
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
    /// Awale endgame databases to use (default: those `pion egtb build` installed).
    #[arg(long, value_name = "DIR")]
    egtb: Option<String>,
}

/// The commands at the prompt, with their usage: what `help` prints.
const COMMANDS: &[(&str, &str)] = &[
    (
        "<move>",
        "play a move: e4e5 in Avalam (the stack on e4 onto e5), C in Awale (a pit)",
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
            moves: Vec::new(),
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
        moves: Vec::new(),
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
                    say!(
                        "your legal moves:{}",
                        legal.iter().map(|m| format!(" {m}")).collect::<String>()
                    );
                }
                ["hint"] => self.hint()?,
                ["undo"] => self.undo()?,
                [word] if !COMMANDS.iter().any(|(name, _)| *name == word) => {
                    match self.engine.command(&Command::Play(word.to_string()))? {
                        Ok(()) => {
                            self.moves.push(word.to_string());
                            self.draw()?;
                        }
                        Err(reason) => {
                            say!("{reason}");
                            self.draw()?;
                        }
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
        let answer = self.engine.search(self.options.movetime)?;
        if let Err(error) = self.engine.command(&Command::Play(answer.best.clone()))? {
            bail!("pion's move {} was refused: {error}", answer.best);
        }
        let score = answer
            .score
            .map(|(s, bound)| format!(" ({})", describe(s, bound)));
        say!("pion plays {}{}", answer.best, score.unwrap_or_default());
        self.moves.push(answer.best);
        self.draw()
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
        let score = answer
            .score
            .map(|(s, bound)| format!(" ({})", describe(s, bound)));
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
            GameKind::Avalam => board::avalam(&position, last, self.style),
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
            let [p1, p2] = status.score;
            let (you, pion) = if self.options.side == 1 {
                (p1, p2)
            } else {
                (p2, p1)
            };
            say!("score: you {you}, pion {pion}");
        }
        Ok(())
    }
}

/// `setoption name <name> value <value>`.
fn set_option(name: &str, value: &str) -> Command {
    Command::SetOption {
        name: name.to_string(),
        value: Some(value.to_string()),
    }
}

/// A search score (its protocol words, then what they mean) for the side to move; `bound`: the
/// result is at least that.
fn describe(score: Score, bound: bool) -> String {
    match score {
        Score::Centi(n) => {
            let points = f64::from(n) / 100.0;
            let more = if bound { " or more" } else { "" };
            format!("score cp {n}: about {points:+.2} points{more} for the side to move")
        }
        Score::Win(m) if bound => format!("score win {m}: a win by {m} or more"),
        Score::Win(m) => format!("score win {m}: a proven win by {m}"),
        Score::Loss(m) if bound => format!("score loss {m}: a loss by {m} or more"),
        Score::Loss(m) => format!("score loss {m}: a proven loss by {m}"),
        Score::Draw => "score draw: a proven draw".to_string(),
    }
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
    match status.winner {
        Some(w) if w == human => {
            format!("Game over ({why}): you win, {winner} to {loser}, by {margin}.")
        }
        Some(_) => format!("Game over ({why}): pion wins, {winner} to {loser}, by {margin}."),
        None => format!("Game over ({why}): a draw, {p1} to {p2}."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
            result(&over("status over draw score 24 24 reason repetition"), 1),
            "Game over (a position repeated): a draw, 24 to 24."
        );
        assert_eq!(
            describe(Score::Centi(-150), false),
            "score cp -150: about -1.50 points for the side to move"
        );
        assert_eq!(
            describe(Score::Win(3), true),
            "score win 3: a win by 3 or more"
        );
        assert_eq!(describe(Score::Draw, false), "score draw: a proven draw");
        assert_eq!(
            describe(Score::Loss(2), false),
            "score loss 2: a proven loss by 2"
        );
    }
}
