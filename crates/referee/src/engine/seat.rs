//! A seat at a worker's table: one engine of the match, started when first needed, configured,
//! reused from game to game, and started again after it died or was killed.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use pion_rules::GameKind;

use crate::config::EngineSpec;
use crate::engine::handshake::Proto;
use crate::engine::{Engine, EngineError};

/// What every start of an engine needs besides its own spec.
#[derive(Clone, Debug)]
pub struct StartSettings {
    /// The game.
    pub game: GameKind,
    /// The variant, sent as the `Variant` option when set.
    pub variant: Option<String>,
    /// Deadline for spawning plus the `pion` handshake.
    pub startup_timeout: Duration,
    /// Deadline for each `readyok`.
    pub isready_timeout: Duration,
    /// Grace after `quit` before the process group is killed.
    pub quit_timeout: Duration,
    /// Whether every `info` line is logged (see [`Engine::spawn`]).
    pub log_all_info: bool,
}

/// The rules a UCI Oware engine (Aualé's dialect) plays: Awale `grandslam-nocapture`.
pub const UCI_VARIANT: &str = "grandslam-nocapture";

/// Whether an engine of the Oware UCI dialect can play `game` under `variant`; why not.
pub fn uci_plays(game: GameKind, variant: Option<&str>) -> Result<(), String> {
    if game == GameKind::Awale && variant == Some(UCI_VARIANT) {
        return Ok(());
    }
    Err(format!(
        "speaks the Oware UCI dialect, which plays only --game awale --variant {UCI_VARIANT} \
         (this match: {game} {})",
        variant.unwrap_or("standard")
    ))
}

/// One engine of the match, as one worker runs it.
pub struct Seat {
    /// The engine's spec.
    pub spec: EngineSpec,
    log: PathBuf,
    settings: StartSettings,
    engine: Option<Engine>,
    /// How many processes this seat has started.
    pub starts: u32,
}

impl Seat {
    /// A seat with no process yet.
    pub fn new(spec: EngineSpec, log: PathBuf, settings: StartSettings) -> Seat {
        Seat {
            spec,
            log,
            settings,
            engine: None,
            starts: 0,
        }
    }

    /// Makes sure a configured engine is running: spawn, handshake, options, `isready`.
    pub fn start(&mut self) -> Result<&mut Engine, EngineError> {
        if self.engine.is_none() {
            self.starts += 1;
            let mut engine = Engine::spawn(&self.spec, &self.log, self.settings.log_all_info)?;
            let configured = self.configure(&mut engine);
            if let Err(error) = configured {
                engine.kill();
                return Err(error);
            }
            self.engine = Some(engine);
        }
        Ok(self.engine.as_mut().expect("just started"))
    }

    fn configure(&self, engine: &mut Engine) -> Result<(), EngineError> {
        let s = &self.settings;
        engine.handshake(&self.spec, Instant::now() + s.startup_timeout)?;
        let id = &engine.identity;
        if !id.games.is_empty() && !id.games.iter().any(|g| g == s.game.name()) {
            return Err(EngineError::Protocol(format!(
                "does not play {} (it lists: {})",
                s.game,
                id.games.join(", ")
            )));
        }
        if engine.proto == Proto::Uci {
            uci_plays(s.game, s.variant.as_deref()).map_err(EngineError::Protocol)?;
        }
        // A UGI engine's game is an option; a variant belongs to a game: the game comes first.
        if engine.proto == Proto::Ugi && id.options.iter().any(|o| o == "Game") {
            engine.set_option("Game", s.game.name(), Instant::now() + s.isready_timeout)?;
        }
        // A UCI Oware engine plays abapa (grandslam-nocapture) and has no Variant option.
        if let Some(variant) = s.variant.as_ref().filter(|_| engine.proto != Proto::Uci) {
            engine.new_game(s.game)?;
            engine.set_option("Variant", variant, Instant::now() + s.isready_timeout)?;
        }
        for (name, value) in &self.spec.options {
            engine.set_option(name, value, Instant::now() + s.isready_timeout)?;
        }
        engine.is_ready(Instant::now() + s.isready_timeout)
    }

    /// Whether the engine takes a per-game `Seed` the user did not fix with `option.Seed=`.
    pub fn wants_seed(&self) -> bool {
        self.engine
            .as_ref()
            .is_some_and(|e| e.identity.options.iter().any(|o| o == "Seed"))
            && !self.spec.options.iter().any(|(n, _)| n == "Seed")
    }

    /// The running engine (call [`Seat::start`] first).
    pub fn engine(&mut self) -> Option<&mut Engine> {
        self.engine.as_mut()
    }

    /// Kills the engine now (it misbehaved); the next game starts a new one.
    pub fn discard(&mut self) {
        if let Some(mut engine) = self.engine.take() {
            engine.kill();
        }
    }

    /// Ends the engine politely: `quit`, then a kill after the grace period.
    pub fn close(&mut self) {
        if let Some(mut engine) = self.engine.take() {
            engine.shutdown(self.settings.quit_timeout);
        }
    }
}

impl Drop for Seat {
    fn drop(&mut self) {
        self.close();
    }
}
