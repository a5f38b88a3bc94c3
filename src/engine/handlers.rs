//! The dispatch of commands and their handlers: each turns one typed command into a change of
//! the session's state and typed replies, or into one error message that leaves the state as it
//! was.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use super::jobs::{Job, RunningSearch, Work, spawn_search};
use super::output::Output;
use super::state::{AnyTable, Table, with_table};
use super::{
    CommandResult, ENGINE_AUTHOR, ENGINE_NAME, Flow, MAX_BENCH_DEPTH, MAX_GO_DEPTH,
    MAX_PERFT_DEPTH, Session,
};
use crate::options::{self, Change, option_specs};
use crate::search::{self, Clock, Limits, SearchGame, Settings};
use pion_protocol::{
    Command, Dialect, GameKind, GoParams, OptionKind, Query, Reply, Start, Status,
};
use pion_rules::game::{Game, History, PerftReport, Player};
use pion_rules::with_game;

/// The rules a session plays after `uci`: abapa, where a grand slam captures nothing.
const UCI_VARIANT: &str = "grandslam-nocapture";

impl Session {
    /// Runs one parsed command, or keeps it waiting for the search, `perft` or `bench` that
    /// runs (see [`must_wait`]).
    pub fn handle(&mut self, command: Command) -> Flow {
        self.run_waiting();
        if must_wait(&command, self.search.as_ref(), !self.waiting.is_empty()) {
            self.waiting.push_back(command);
            return Flow::Continue;
        }
        self.execute(command)
    }

    /// Carries out the commands that waited, in order, until one of them starts work with a
    /// limit (the rest wait for that).
    pub(super) fn run_waiting(&mut self) {
        loop {
            self.reap_search();
            if self.search.as_ref().is_some_and(|s| s.bounded) {
                return;
            }
            let Some(command) = self.waiting.pop_front() else {
                return;
            };
            self.execute(command);
        }
    }

    /// Runs one command now.
    fn execute(&mut self, command: Command) -> Flow {
        let result = match command {
            Command::Quit => return Flow::Quit,
            Command::Stop => {
                self.stop_search();
                Ok(())
            }
            Command::IsReady => {
                self.out.send(&Reply::ReadyOk);
                Ok(())
            }
            Command::Pion => {
                self.speak(Dialect::Pion);
                self.identify(true);
                Ok(())
            }
            Command::Ugi => {
                self.speak(Dialect::Pion);
                self.identify(false);
                Ok(())
            }
            Command::Uci => {
                self.start_uci();
                Ok(())
            }
            Command::PonderHit => Ok(()),
            // Commands that only read the state are answered even during a search.
            Command::Legal => with_table!(&self.table, t => legal(t, &self.out)),
            Command::Status => with_table!(&self.table, t => status(t, &self.out)),
            Command::Show => with_table!(&self.table, t => show(t, &self.out)),
            Command::Query(query) => {
                with_table!(&self.table, t => answer_query(t, query, &self.out))
            }
            Command::Help(topic) => {
                self.out.send(&Reply::Help(topic));
                Ok(())
            }
            // Only an unlimited search is left running here (see `must_wait`).
            command if self.search.is_some() => Err(format!(
                "'{}' is not allowed during an unlimited search: send stop first",
                command_word(&command)
            )),
            Command::SetOption { name, .. }
                if self.dialect == Dialect::Uci && name.eq_ignore_ascii_case("Game") =>
            {
                Err("setoption: Game: the UCI dialect plays Awale only".to_string())
            }
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::NewGame(game) => {
                self.new_game(game);
                Ok(())
            }
            Command::UgiNewGame => {
                self.new_game(None);
                Ok(())
            }
            Command::Position { start, moves } => {
                with_table!(&mut self.table, t => set_position(t, &start, &moves))
            }
            Command::Play(text) => with_table!(&mut self.table, t => t
                .history
                .play_text(&text)
                .map(|_| ())
                .map_err(|e| e.to_string())),
            Command::Undo => with_table!(&mut self.table, t => {
                if t.history.undo() { Ok(()) } else { Err("undo: no move to take back".to_string()) }
            }),
            Command::Go(params) => self.go(&params),
            Command::Perft(depth) => self.perft(depth),
            Command::Bench(depth) => self.bench(depth),
        };
        if let Err(message) = result {
            self.error(message);
        }
        Flow::Continue
    }

    fn identify(&self, pion: bool) {
        let out = &self.out;
        out.send(&Reply::Id("name", ENGINE_NAME.to_string()));
        out.send(&Reply::Id("version", env!("CARGO_PKG_VERSION").to_string()));
        out.send(&Reply::Id("author", ENGINE_AUTHOR.to_string()));
        if pion {
            for game in GameKind::ALL {
                out.send(&Reply::Game(game.name()));
            }
        }
        for spec in option_specs() {
            out.send(&Reply::Option(spec));
        }
        out.send(if pion { &Reply::PionOk } else { &Reply::UgiOk });
        self.after_handshake();
    }

    /// What every handshake (`pion`, `ugi`, `uci`) ends with: the one-time hint on how to
    /// install the endgame databases, when none is installed.
    pub(super) fn after_handshake(&self) {
        if let Some(hint) = crate::egtb::hint() {
            self.out.send(&Reply::InfoString(hint));
        }
    }

    /// Speaks `dialect` from now on.
    fn speak(&mut self, dialect: Dialect) {
        self.dialect = dialect;
        self.out.set_dialect(dialect);
    }

    /// `uci`: the Oware UCI dialect from now on, Awale under the abapa rules
    /// (`grandslam-nocapture`, the only rules Aualé and Aalina play), then the identification:
    /// the name with its version, the author, the options but `Game` (and `Variant` with
    /// Awale's variants only), `uciok`.
    fn start_uci(&mut self) {
        self.stop_search();
        self.speak(Dialect::Uci);
        self.new_game(Some(GameKind::Awale));
        self.set_variant(UCI_VARIANT)
            .expect("grandslam-nocapture is a variant of Awale");
        let out = &self.out;
        let version = env!("CARGO_PKG_VERSION");
        out.send(&Reply::Id("name", format!("{ENGINE_NAME} {version}")));
        out.send(&Reply::Id("author", ENGINE_AUTHOR.to_string()));
        for mut spec in option_specs() {
            match spec.name {
                "Game" => continue,
                "Variant" => {
                    let vars = pion_rules::awale::Awale::variant_names();
                    spec.kind = OptionKind::Combo {
                        default: UCI_VARIANT.to_string(),
                        vars: vars.iter().map(|v| v.to_string()).collect(),
                    }
                }
                _ => {}
            }
            out.send(&Reply::Option(spec));
        }
        out.send(&Reply::UciOk);
    }

    fn current_game(&self) -> GameKind {
        self.table.kind()
    }

    /// A new game: the same game keeps its variant, the other game starts with the standard one.
    fn new_game(&mut self, game: Option<GameKind>) {
        let game = game.unwrap_or(self.current_game());
        if game == self.current_game() {
            with_table!(&mut self.table, t => t.restart(t.variant));
            return;
        }
        // The other game's table is shrunk (which frees it) before this one is made: with a
        // large `Hash`, two at once could exhaust the memory.
        let settings = self.settings;
        let small = Settings {
            hash_mib: 1,
            ..settings
        };
        with_table!(&self.table, t => t.searcher().set_settings(small));
        self.table = AnyTable::new(game, settings);
        if let Some((_, variant)) = self.kept_variant.take_if(|(kept, _)| *kept == game) {
            self.set_variant(&variant)
                .expect("a kept variant is a variant of its game");
        }
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) -> CommandResult {
        match options::set_option(self.settings, name, value)? {
            Change::Settings(settings) => {
                self.settings = settings;
                with_table!(&self.table, t => t.searcher().set_settings(settings));
            }
            Change::Game(game) => self.new_game(Some(game)),
            Change::Variant(name) => return self.choose_variant(&name),
            Change::EgtbPath(choice) => {
                return crate::egtb::choose(&choice)
                    .map_err(|e| format!("setoption: EgtbPath: {e}; playing without databases"));
            }
        }
        Ok(())
    }

    /// Sets the `Variant` option: a variant of the current game applies at once (and `standard`,
    /// a variant of both, forgets a kept one); a variant of the other game only is kept for its
    /// next start, since UGI tools send `Variant` and `Game` in any order (protocol.md).
    fn choose_variant(&mut self, name: &str) -> CommandResult {
        fn has(game: GameKind, name: &str) -> bool {
            with_game!(game, G => G::parse_variant(name).is_some())
        }
        let current = self.current_game();
        let other = GameKind::ALL.into_iter().find(|&g| g != current);
        match other {
            Some(other) if has(other, name) && !has(current, name) => {
                self.kept_variant = Some((other, name.to_string()));
                Ok(())
            }
            _ => {
                self.set_variant(name)?;
                if other.is_some_and(|o| has(o, name)) {
                    self.kept_variant = None;
                }
                Ok(())
            }
        }
    }

    /// Changes the variant of the current game, which starts it again from the start position.
    fn set_variant(&mut self, name: &str) -> CommandResult {
        fn apply<G: SearchGame>(t: &mut Table<G>, name: &str) -> CommandResult {
            let variant = G::parse_variant(name).ok_or_else(|| {
                format!(
                    "setoption: Variant {name} is not a variant of {} (its variants: {})",
                    G::NAME,
                    G::variant_names().join(", ")
                )
            })?;
            t.restart(variant);
            Ok(())
        }
        with_table!(&mut self.table, t => apply(t, name))
    }

    fn go(&mut self, params: &GoParams) -> CommandResult {
        // The default databases are opened when a search first needs them.
        if self.table.kind() == GameKind::Awale
            && let Some(problem) =
                crate::egtb::prepare(self.table.get::<pion_rules::awale::Awale>().variant)
        {
            self.out.send(&Reply::InfoString(problem));
        }
        let limits =
            with_table!(&self.table, t => limits_for(params, t.history.position().side_to_move()))?;
        // A finished game has nothing to search: answer at once, so that a script may go on
        // without waiting (`go infinite` still waits for `stop`, as any infinite search does).
        // In the UCI dialect a side that cannot feed its opponent has no move (the game is over
        // under abapa as Aualé and Aalina play it): `bestmove 0000`, as Aalina answers.
        let uci = self.dialect == Dialect::Uci;
        let over = with_table!(&self.table, t => t.history.outcome().is_some()
            || (uci && t.history.position().ends_without_moving()));
        if over && !limits.infinite {
            self.out.send(&Reply::BestMove(None));
            return Ok(());
        }
        // The book answers a game's move (a time limit, no fixed size of search) at once.
        let timed = limits.movetime.is_some() || limits.clock.is_some();
        if timed && limits.depth.is_none() && limits.nodes.is_none() && !limits.infinite {
            let hit = with_table!(&self.table, t => crate::book::probe(t.history.position(), &self.settings));
            if let Some((mv, info)) = hit {
                self.out.send(&Reply::InfoString("book".into()));
                self.out.send(&Reply::Info(info));
                self.out.send(&Reply::BestMove(Some(mv)));
                return Ok(());
            }
        }
        let stop = Arc::new(AtomicBool::new(false));
        let finished = Arc::new(AtomicBool::new(false));
        let handle = with_table!(&self.table, t => spawn_search(
            t,
            limits,
            self.out.clone(),
            stop.clone(),
            finished.clone(),
            self.wake.clone(),
        ));
        let bounded = !limits.infinite
            && (limits.depth.is_some()
                || limits.nodes.is_some()
                || limits.movetime.is_some()
                || limits.clock.is_some());
        self.search = Some(RunningSearch {
            stop,
            finished,
            handle,
            bounded,
        });
        Ok(())
    }

    fn perft(&mut self, depth: u32) -> CommandResult {
        if depth > MAX_PERFT_DEPTH {
            return Err(format!(
                "perft: depth {depth} is too deep (at most {MAX_PERFT_DEPTH})"
            ));
        }
        let job: Job = with_table!(&self.table, t => {
            let position = *t.history.position();
            Box::new(move |stop: &AtomicBool| match PerftReport::run_until(&position, depth, stop) {
                Some(report) => Reply::Perft(report.to_string()),
                None => Reply::Error("perft: stopped before the count was complete".into()),
            })
        });
        self.spawn_job(Work::Perft, job);
        Ok(())
    }

    fn bench(&mut self, depth: Option<u32>) -> CommandResult {
        if let Some(depth) = depth.filter(|&d| d > MAX_BENCH_DEPTH) {
            return Err(format!(
                "bench: depth {depth} is too deep (at most {MAX_BENCH_DEPTH})"
            ));
        }
        self.spawn_job(
            Work::Bench,
            move |stop: &AtomicBool| match search::bench::bench_until(depth, stop) {
                Some(report) => Reply::Bench(report.to_string()),
                None => Reply::Error("bench: stopped before it finished".into()),
            },
        );
        Ok(())
    }
}

/// Whether `command` waits rather than running now. Work with a limit (`go` with a limit,
/// `perft`, `bench`) runs as if in the foreground: every later command but `stop` and `quit`
/// waits for it in order, `isready` included, so that `readyok` comes after its `bestmove`; the
/// read-only commands (`legal`, `status`, `show`, `query`, `help`, `pion`, `ugi`) answer at once unless other
/// commands already wait. During an unlimited search nothing waits: `isready` answers at once and
/// a command that changes the state is refused.
fn must_wait(command: &Command, running: Option<&RunningSearch>, others_wait: bool) -> bool {
    if matches!(command, Command::Stop | Command::Quit) {
        return false;
    }
    let read_only = matches!(
        command,
        Command::Legal
            | Command::Status
            | Command::Show
            | Command::Query(_)
            | Command::Help(_)
            | Command::Pion
            | Command::Ugi
    );
    others_wait || (running.is_some_and(|s| s.bounded) && !read_only)
}

/// The first word of a command, for error messages.
fn command_word(command: &Command) -> String {
    command
        .to_string()
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .to_string()
}

/// Turns `go` parameters into search limits, checking that a clock names the side to move.
fn limits_for(params: &GoParams, side: Player) -> Result<Limits, String> {
    if let Some(depth) = params.depth
        && depth > MAX_GO_DEPTH
    {
        return Err(format!(
            "go: depth {depth} is too deep (at most {MAX_GO_DEPTH})"
        ));
    }
    let clock = if params.p1time.is_some() || params.p2time.is_some() {
        let time = [params.p1time, params.p2time];
        if time[side.index()].is_none() {
            return Err(format!(
                "go: p{}time is missing: the clock of the side to move is needed",
                side.number()
            ));
        }
        Some(Clock {
            time: time.map(|t| t.unwrap_or(0)),
            inc: [params.p1inc.unwrap_or(0), params.p2inc.unwrap_or(0)],
            movestogo: params.movestogo,
        })
    } else {
        let clock_only = [
            ("p1inc", params.p1inc.is_some()),
            ("p2inc", params.p2inc.is_some()),
            ("movestogo", params.movestogo.is_some()),
        ];
        if let Some((name, _)) = clock_only.iter().find(|(_, given)| *given) {
            return Err(format!("go: {name} needs a clock (p1time or p2time)"));
        }
        None
    };
    Ok(Limits {
        depth: params.depth.map(|d| d.max(1)),
        nodes: params.nodes,
        movetime: params.movetime,
        clock,
        infinite: params.infinite,
    })
}

fn set_position<G: SearchGame>(
    table: &mut Table<G>,
    start: &Start,
    moves: &[String],
) -> CommandResult {
    let root = match start {
        Start::StartPos => G::start(table.variant),
        Start::Notation { board, side, .. } => {
            G::parse_position(board, side, table.variant).map_err(|e| format!("position: {e}"))?
        }
    };
    let mut history = History::new(root);
    for (i, text) in moves.iter().enumerate() {
        history.play_text(text).map_err(|e| {
            format!(
                "position: move {} ({}): {e}",
                i + 1,
                pion_rules::game::shorten(text)
            )
        })?;
    }
    table.history = history;
    Ok(())
}

fn legal<G: SearchGame>(table: &Table<G>, out: &Output) -> CommandResult {
    let mut moves = G::Moves::default();
    table.history.legal_moves(&mut moves);
    let moves = moves.as_ref().iter().map(|&m| G::format_move(m)).collect();
    out.send(&Reply::Legal(moves));
    Ok(())
}

fn status<G: SearchGame>(table: &Table<G>, out: &Output) -> CommandResult {
    let position = table.history.position();
    let status = match table.history.outcome() {
        None => Status {
            turn: Some(position.side_to_move().number()),
            winner: None,
            score: position.points(),
            reason: None,
            tiebreak: position.tiebreak(),
        },
        Some(outcome) => Status {
            turn: None,
            winner: outcome.winner().map(Player::number),
            score: outcome.score,
            reason: Some(outcome.reason.as_str()),
            tiebreak: outcome.tiebreak,
        },
    };
    out.send(&Reply::Status(status));
    Ok(())
}

fn show<G: SearchGame>(table: &Table<G>, out: &Output) -> CommandResult {
    let position = table.history.position();
    out.send(&Reply::Board {
        game: G::NAME,
        picture: position.pretty(),
        position: position.format_position(),
    });
    Ok(())
}

fn answer_query<G: SearchGame>(table: &Table<G>, query: Query, out: &Output) -> CommandResult {
    let outcome = table.history.outcome();
    let answer = match query {
        Query::P1Turn => {
            if table.history.position().side_to_move() == Player::One {
                "true"
            } else {
                "false"
            }
        }
        Query::GameOver => {
            if outcome.is_some() {
                "true"
            } else {
                "false"
            }
        }
        Query::Result => match outcome.map(|o| o.winner()) {
            None => "none",
            Some(Some(Player::One)) => "p1win",
            Some(Some(Player::Two)) => "p2win",
            Some(None) => "draw",
        },
        Query::Variants => {
            out.send(&Reply::Response(G::variant_names().join(" ")));
            return Ok(());
        }
    };
    out.send(&Reply::Response(answer.to_string()));
    Ok(())
}
