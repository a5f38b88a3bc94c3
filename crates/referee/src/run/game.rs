//! One game between two seated engines, refereed move by move.
//!
//! The referee owns the rules: every move an engine sends is checked against the legal list of
//! the referee's own [`History`] (repetition included), and the clocks are the referee's, from
//! wall time around each `go`. Anything else an engine does wrong loses it the game, with the
//! reason recorded.

use std::time::{Duration, Instant, SystemTime};

use crate::config::{MaxPliesRule, TimeControl};
use crate::engine::handshake::{Identity, Proto};
use crate::engine::seat::Seat;
use crate::engine::{BestMove, EngineError};
use crate::record::Reason;
use crate::run::adjudicate::{Adjudication, Adjudicator, Verdict};
use crate::run::openings::Opening;
use pion_protocol::EngineScore;
use pion_protocol::GoParams;
use pion_protocol::engine_info::MoveData;
use pion_rules::GameKind;
use pion_rules::game::{Game, History, Player, leader};

/// The rules of one game, besides the engines.
#[derive(Clone, Debug)]
pub struct GameSettings {
    /// The opening, played by the referee before the engines move.
    pub opening: Opening,
    /// The seed given to engines that have a `Seed` option.
    pub seed: u64,
    /// The time control of player 1 and player 2.
    pub tc: [TimeControl; 2],
    /// Grace beyond a time limit.
    pub time_margin: Duration,
    /// Deadline of a `go` that has no time limit.
    pub hang_timeout: Duration,
    /// Deadline of `readyok`.
    pub isready_timeout: Duration,
    /// Engine plies after which the game is adjudicated.
    pub max_plies: Option<u32>,
    /// How adjudicated games are scored.
    pub max_plies_rule: MaxPliesRule,
    /// Adjudication from the engines' scores.
    pub adjudication: Adjudication,
}

/// How a game ended, by player (0 = player 1).
#[derive(Clone, Debug, PartialEq)]
pub struct GameOutcome {
    /// The winner, or `None` for a draw.
    pub winner: Option<usize>,
    /// Why it ended.
    pub reason: Reason,
    /// What happened, for forfeits and adjudications.
    pub detail: Option<String>,
    /// The player that forfeited.
    pub loser: Option<usize>,
    /// Final points of each player.
    pub score: [u32; 2],
    /// The engines' moves.
    pub moves: Vec<String>,
    /// Milliseconds per engine move.
    pub times_ms: Vec<u64>,
    /// What the engine said about each of its moves.
    pub data: Vec<MoveData>,
    /// The adjudication rule that ended the game (`maxplies`, `draw`, `resign`, `proven`).
    pub rule: Option<String>,
    /// How player 1's and player 2's engines identified themselves (default if not started).
    pub players: [Identity; 2],
    /// When the game started.
    pub started: SystemTime,
}

/// The game was abandoned because the referee was interrupted.
#[derive(Debug)]
pub struct Interrupted;

/// A clock kept by the referee.
#[derive(Clone, Copy, Debug)]
struct Clock {
    tc: TimeControl,
    /// Milliseconds left (for clock time controls), may go negative within the margin.
    left_ms: i64,
    moves: u32,
}

impl Clock {
    fn new(tc: TimeControl) -> Clock {
        let left_ms = match tc {
            TimeControl::Clock { base_ms, .. } => base_ms as i64,
            _ => 0,
        };
        Clock {
            tc,
            left_ms,
            moves: 0,
        }
    }

    /// The time limit for this move, if any.
    fn limit_ms(&self) -> Option<i64> {
        match self.tc {
            TimeControl::MoveTime(ms) => Some(ms as i64),
            TimeControl::Clock { .. } => Some(self.left_ms),
            TimeControl::Depth(_) | TimeControl::Nodes(_) => None,
        }
    }

    /// Charges a move's time; then the increment and the period's refill.
    fn charge(&mut self, elapsed_ms: i64) {
        if let TimeControl::Clock {
            base_ms,
            inc_ms,
            moves_to_go,
        } = self.tc
        {
            self.left_ms -= elapsed_ms;
            self.left_ms += inc_ms as i64;
            self.moves += 1;
            if moves_to_go.is_some_and(|m| self.moves.is_multiple_of(m)) {
                self.left_ms += base_ms as i64;
            }
        }
    }
}

/// The `go` parameters for `side`, given both clocks.
fn go_params(clocks: &[Clock; 2], side: usize) -> GoParams {
    match clocks[side].tc {
        TimeControl::MoveTime(ms) => GoParams {
            movetime: Some(ms),
            ..GoParams::default()
        },
        TimeControl::Depth(d) => GoParams {
            depth: Some(d),
            ..GoParams::default()
        },
        TimeControl::Nodes(n) => GoParams {
            nodes: Some(n),
            ..GoParams::default()
        },
        TimeControl::Clock {
            inc_ms,
            moves_to_go,
            ..
        } => {
            // An opponent without a clock is shown our own numbers: the engine has to be told
            // something, and it is what it would see in a symmetric match.
            let view = |c: &Clock| match c.tc {
                TimeControl::Clock { inc_ms, .. } => (c.left_ms.max(0) as u64, inc_ms),
                _ => (clocks[side].left_ms.max(0) as u64, inc_ms),
            };
            let (t1, i1) = view(&clocks[0]);
            let (t2, i2) = view(&clocks[1]);
            GoParams {
                p1time: Some(t1),
                p2time: Some(t2),
                p1inc: Some(i1),
                p2inc: Some(i2),
                movestogo: moves_to_go.map(|m| m - clocks[side].moves % m),
                ..GoParams::default()
            }
        }
    }
}

fn reason_of(error: &EngineError) -> Reason {
    match error {
        EngineError::Timeout(_) => Reason::Timeout,
        EngineError::Protocol(_) => Reason::ProtocolError,
        EngineError::Spawn(_) | EngineError::Crash(_) | EngineError::Interrupted => Reason::Crash,
    }
}

/// What a game has produced so far, for its outcome.
struct Trace {
    moves: Vec<String>,
    times_ms: Vec<u64>,
    data: Vec<MoveData>,
    players: [Identity; 2],
    started: SystemTime,
}

impl Trace {
    /// The outcome of the game that ended so.
    fn finish(self, ending: Ending) -> GameOutcome {
        GameOutcome {
            winner: ending.winner,
            reason: ending.reason,
            detail: ending.detail,
            loser: ending.loser,
            score: ending.score,
            moves: self.moves,
            times_ms: self.times_ms,
            data: self.data,
            rule: ending.rule.map(str::to_string),
            players: self.players,
            started: self.started,
        }
    }
}

/// How a game ended, apart from what it produced on the way.
struct Ending {
    winner: Option<usize>,
    reason: Reason,
    detail: Option<String>,
    loser: Option<usize>,
    score: [u32; 2],
    rule: Option<&'static str>,
}

impl Ending {
    /// Ended by an adjudication `rule`.
    fn adjudicated(
        winner: Option<usize>,
        rule: &'static str,
        detail: String,
        score: [u32; 2],
    ) -> Ending {
        Ending {
            winner,
            reason: Reason::Adjudication,
            detail: Some(detail),
            loser: None,
            score,
            rule: Some(rule),
        }
    }
}

/// UCI's null move: Aalina's answer where the game is over by its rules.
const NO_MOVE: &str = "0000";

/// Why a game stopped being played.
enum Stop {
    /// It ended.
    Ended(Ending),
    /// The referee was interrupted.
    Interrupted,
}

/// One game under way: the engines, the referee's board and clocks, and what was played.
struct Refereed<'a, G: Game> {
    seats: [&'a mut Seat; 2],
    settings: &'a GameSettings,
    history: History<G>,
    clocks: [Clock; 2],
    adjudicator: Adjudicator,
    trace: Trace,
}

/// Plays one game: `seats[0]` is player 1. Engines that misbehave are killed (their seat
/// restarts them for the next game); an engine that only played an illegal move is kept.
pub fn play<G: Game>(
    seats: [&mut Seat; 2],
    settings: &GameSettings,
    variant: G::Variant,
) -> Result<GameOutcome, Interrupted> {
    let mut game = Refereed::<G> {
        seats,
        settings,
        history: settings
            .opening
            .history(variant)
            .expect("openings are checked when they are made"),
        clocks: [Clock::new(settings.tc[0]), Clock::new(settings.tc[1])],
        adjudicator: Adjudicator::new(settings.adjudication),
        trace: Trace {
            moves: Vec::new(),
            times_ms: Vec::new(),
            data: Vec::new(),
            players: Default::default(),
            started: SystemTime::now(),
        },
    };
    let stop = match game.run() {
        Ok(never) => match never {},
        Err(stop) => stop,
    };
    match stop {
        Stop::Ended(ending) => Ok(game.trace.finish(ending)),
        Stop::Interrupted => Err(Interrupted),
    }
}

impl<G: Game> Refereed<'_, G> {
    /// Prepares the engines, then asks for moves until the game stops.
    fn run(&mut self) -> Result<std::convert::Infallible, Stop> {
        self.prepare_engines()?;
        let mut verdict = None;
        loop {
            self.check_end(verdict.take())?;
            let side = self.history.position().side_to_move().index();
            let reply = self.ask_move(side)?;
            verdict = self.play_move(side, &reply.text, reply.data.score)?;
        }
    }

    /// Starts (or reuses) both engines and sets them up for a new game.
    fn prepare_engines(&mut self) -> Result<(), Stop> {
        for p in 0..2 {
            if let Err(error) = prepare(self.seats[p], self.settings, G::KIND) {
                if error == EngineError::Interrupted {
                    return Err(Stop::Interrupted);
                }
                let detail = format!("{} {error}", self.seats[p].spec.name);
                return Err(self.forfeit(p, reason_of(&error), detail, true));
            }
            if let Some(engine) = self.seats[p].engine() {
                self.trace.players[p] = engine.identity.clone();
            }
        }
        Ok(())
    }

    /// Stops a game that is over: by the rules, by the adjudicator's `verdict` on the last
    /// move, or at the ply limit.
    fn check_end(&self, verdict: Option<Verdict>) -> Result<(), Stop> {
        if let Some(outcome) = self.history.outcome() {
            // A result the tie-break decided says so, with what decided it.
            let detail = match outcome.tiebreak {
                Some([one, two]) if outcome.decided_by_tiebreak() => Some(format!(
                    "level on points, decided by the tie-break: {one} to {two}"
                )),
                _ => None,
            };
            return Err(Stop::Ended(Ending {
                winner: outcome.winner().map(Player::index),
                reason: Reason::Normal,
                detail,
                loser: None,
                score: outcome.score,
                rule: None,
            }));
        }
        let score = self.history.position().points();
        if let Some(v) = verdict {
            let rule = v.rule.as_str();
            let detail = format!("{rule}: {}", v.detail);
            return Err(Stop::Ended(Ending::adjudicated(
                v.winner, rule, detail, score,
            )));
        }
        let played = self.trace.moves.len() as u32;
        if self.settings.max_plies.is_some_and(|max| played >= max) {
            let winner = match self.settings.max_plies_rule {
                MaxPliesRule::Draw => None,
                MaxPliesRule::Score => {
                    leader(score, self.history.position().tiebreak()).map(Player::index)
                }
            };
            let detail = format!("{played} plies reached");
            return Err(Stop::Ended(Ending::adjudicated(
                winner, "maxplies", detail, score,
            )));
        }
        Ok(())
    }

    /// Sends `side`'s engine the position and `go`, and takes its `bestmove` within its time
    /// limit, charging its clock and keeping the time and what it said.
    fn ask_move(&mut self, side: usize) -> Result<BestMove, Stop> {
        let name = self.seats[side].spec.name.clone();
        let go = go_params(&self.clocks, side);
        let limit_ms = self.clocks[side].limit_ms();
        let margin_ms = self.settings.time_margin.as_millis() as i64;
        let hang_timeout = self.settings.hang_timeout;

        let engine = self.seats[side].engine().expect("prepared above");
        let sent_position = engine.position(&self.settings.opening, &self.trace.moves);
        let sent = Instant::now();
        let deadline = sent
            + match limit_ms {
                Some(ms) => Duration::from_millis((ms + margin_ms).max(0) as u64),
                None => hang_timeout,
            };
        let reply = match sent_position.and_then(|()| engine.go(go, deadline)) {
            Ok(reply) => reply,
            Err(EngineError::Interrupted) => return Err(Stop::Interrupted),
            Err(error) => {
                let detail = match (&error, limit_ms) {
                    (EngineError::Timeout(_), Some(ms)) => {
                        format!("{name} sent no bestmove within {ms} ms + {margin_ms} ms margin")
                    }
                    (EngineError::Timeout(_), None) => format!(
                        "{name} sent no bestmove within {} ms (stuck)",
                        hang_timeout.as_millis()
                    ),
                    _ => format!("{name} {error}"),
                };
                return Err(self.forfeit(side, reason_of(&error), detail, true));
            }
        };
        let elapsed_ms = reply.at.saturating_duration_since(sent).as_millis() as i64;
        if let Some(ms) = limit_ms
            && elapsed_ms > ms + margin_ms
        {
            let detail =
                format!("{name} took {elapsed_ms} ms, limit {ms} ms + {margin_ms} ms margin");
            return Err(self.forfeit(side, Reason::Timeout, detail, true));
        }
        self.clocks[side].charge(elapsed_ms);
        self.trace.times_ms.push(elapsed_ms.max(0) as u64);
        self.trace.data.push(reply.data);
        Ok(reply)
    }

    /// Plays `side`'s move `text` on the referee's board, or forfeits an illegal one (keeping
    /// the engine: it did nothing wrong but play). The adjudicator's verdict, if the engine's
    /// `score` ends the game.
    fn play_move(
        &mut self,
        side: usize,
        text: &str,
        score: Option<EngineScore>,
    ) -> Result<Option<Verdict>, Stop> {
        if text == NO_MOVE {
            return Err(self.no_move(side));
        }
        match self.history.play_text(text) {
            Ok(mv) => {
                self.trace.moves.push(G::format_move(mv));
                let plies = (self.settings.opening.moves.len() + self.trace.moves.len()) as u32;
                Ok(self.adjudicator.observe(plies, side, score))
            }
            Err(why) => {
                let detail = format!(
                    "{} played '{}' at {}: {why}",
                    self.seats[side].spec.name,
                    pion_rules::game::shorten(text),
                    self.history.position().format_position()
                );
                Err(self.forfeit(side, Reason::IllegalMove, detail, false))
            }
        }
    }

    /// A UCI Oware engine's `bestmove 0000`: where the side to move cannot feed an opponent
    /// with no seed, the abapa rules as Aalina reads them end the game, with the score pion's
    /// rules give one move later; anywhere else (and from any other engine) it is an illegal
    /// move.
    fn no_move(&mut self, side: usize) -> Stop {
        let uci = self.seats[side]
            .engine()
            .is_some_and(|engine| engine.proto == Proto::Uci);
        let position = *self.history.position();
        if uci && position.ends_without_moving() {
            // The time and data of the answer belong to no move of the record.
            self.trace.times_ms.pop();
            self.trace.data.pop();
            let score = position.points();
            let winner = match score[0].cmp(&score[1]) {
                std::cmp::Ordering::Greater => Some(0),
                std::cmp::Ordering::Less => Some(1),
                std::cmp::Ordering::Equal => None,
            };
            return Stop::Ended(Ending {
                winner,
                reason: Reason::Normal,
                detail: None,
                loser: None,
                score,
                rule: None,
            });
        }
        let detail = format!(
            "{} played '{NO_MOVE}' (no move) at {}, where it has a legal move",
            self.seats[side].spec.name,
            position.format_position()
        );
        self.forfeit(side, Reason::IllegalMove, detail, false)
    }

    /// The game lost by `loser`'s fault; its engine is killed when `kill` is set.
    fn forfeit(&mut self, loser: usize, reason: Reason, detail: String, kill: bool) -> Stop {
        if kill {
            self.seats[loser].discard();
        }
        Stop::Ended(Ending {
            winner: Some(1 - loser),
            reason,
            detail: Some(detail),
            loser: Some(loser),
            score: self.history.position().points(),
            rule: None,
        })
    }
}

/// Starts the seat's engine if needed, gives it the game's seed, `newgame`, `isready`.
fn prepare(seat: &mut Seat, settings: &GameSettings, game: GameKind) -> Result<(), EngineError> {
    let wants_seed = {
        seat.start()?;
        seat.wants_seed()
    };
    let engine = seat.engine().expect("started");
    let ready = Instant::now() + settings.isready_timeout;
    if wants_seed {
        // Engine seeds are kept below 2^31 so that any spin option range accepts them.
        engine.set_option("Seed", &(settings.seed & 0x7FFF_FFFF).to_string(), ready)?;
    }
    engine.new_game(game)?;
    engine.is_ready(Instant::now() + settings.isready_timeout)
}

#[cfg(test)]
mod tests {
    use super::*;
    use pion_protocol::Command;

    #[test]
    fn clock_with_moves_to_go_refills_each_period() {
        let tc = TimeControl::Clock {
            base_ms: 1000,
            inc_ms: 10,
            moves_to_go: Some(2),
        };
        let mut clocks = [Clock::new(tc), Clock::new(tc)];
        assert_eq!(
            Command::Go(go_params(&clocks, 0)).to_string(),
            "go p1time 1000 p2time 1000 p1inc 10 p2inc 10 movestogo 2"
        );
        clocks[0].charge(300);
        assert_eq!(clocks[0].left_ms, 710);
        assert_eq!(
            Command::Go(go_params(&clocks, 0)).to_string(),
            "go p1time 710 p2time 1000 p1inc 10 p2inc 10 movestogo 1"
        );
        clocks[0].charge(200);
        assert_eq!(clocks[0].left_ms, 710 - 200 + 10 + 1000);
        assert_eq!(clocks[0].limit_ms(), Some(1520));
    }

    #[test]
    fn fixed_limits_have_their_own_go() {
        let clocks = [
            Clock::new(TimeControl::MoveTime(50)),
            Clock::new(TimeControl::Depth(3)),
        ];
        assert_eq!(
            Command::Go(go_params(&clocks, 0)).to_string(),
            "go movetime 50"
        );
        assert_eq!(Command::Go(go_params(&clocks, 1)).to_string(), "go depth 3");
        assert_eq!(clocks[1].limit_ms(), None);
    }
}
