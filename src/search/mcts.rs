//! UCT Monte Carlo tree search with uniformly random playouts.
//!
//! The tree lives in one vector of nodes, capped by the `Hash` size; each iteration descends by
//! UCB1, expands a leaf on its second visit, plays a random game to the end and backs the result
//! up (1 for a win, ½ for a draw, from the point of view of the player who made each move). The
//! generator is seeded from `Seed` and the position, so a node-limited search is deterministic.

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::time::Watch;
use super::{Info, Limits, Score, Settings};
use pion_rules::game::{Game, History, Player, leader};

/// Playouts longer than this are scored as if the game ended there (Awale can cycle).
pub const PLAYOUT_CAP: usize = 300;

struct Node<M> {
    mv: M,
    first_child: u32,
    children: u32,
    visits: u32,
    /// Sum of rewards for the player who made `mv`.
    reward: f32,
    expanded: bool,
}

fn reward_for(winner: Option<Player>, player: Player) -> f32 {
    match winner {
        Some(w) if w == player => 1.0,
        Some(_) => 0.0,
        None => 0.5,
    }
}

/// Who is ahead in `pos` if the game ended there: points, then the variant's tie-break.
fn leading<G: Game>(pos: &G) -> Option<Player> {
    leader(pos.points(), pos.tiebreak())
}

struct Tree<G: Game> {
    nodes: Vec<Node<G::Move>>,
    capacity: usize,
    exploration: f32,
    /// Set once a node could not be expanded for want of room.
    full: bool,
}

impl<G: Game> Tree<G> {
    fn expand(&mut self, index: usize, pos: &G) {
        let mut moves = G::Moves::default();
        pos.legal_moves(&mut moves);
        let list = moves.as_ref();
        let needed = self.nodes.len() + list.len();
        if needed > self.capacity {
            self.full = true;
            return;
        }
        if needed > self.nodes.capacity() {
            // Grow by doubling, but never past the capacity that `Hash` allows.
            let target = (2 * self.nodes.capacity()).clamp(needed, self.capacity);
            self.nodes.reserve_exact(target - self.nodes.len());
        }
        let first = self.nodes.len() as u32;
        for &mv in list {
            self.nodes.push(Node {
                mv,
                first_child: 0,
                children: 0,
                visits: 0,
                reward: 0.0,
                expanded: false,
            });
        }
        let node = &mut self.nodes[index];
        node.first_child = first;
        node.children = list.len() as u32;
        node.expanded = true;
    }

    fn select(&self, index: usize) -> usize {
        let node = &self.nodes[index];
        let log_parent = (node.visits.max(1) as f32).ln();
        let mut best = node.first_child as usize;
        let mut best_ucb = f32::NEG_INFINITY;
        for c in node.first_child as usize..(node.first_child + node.children) as usize {
            let child = &self.nodes[c];
            if child.visits == 0 {
                return c;
            }
            let n = child.visits as f32;
            let ucb = child.reward / n + self.exploration * (log_parent / n).sqrt();
            if ucb > best_ucb {
                best_ucb = ucb;
                best = c;
            }
        }
        best
    }

    /// The most visited child of a node.
    fn best_child(&self, index: usize) -> Option<usize> {
        let node = &self.nodes[index];
        (node.first_child as usize..(node.first_child + node.children) as usize)
            .max_by_key(|&c| (self.nodes[c].visits, std::cmp::Reverse(c)))
    }

    /// The most visited move at each step; after the first (the move played), only while the
    /// search prefers it: visited more than once, and more often than any other move there.
    fn pv(&self) -> Vec<G::Move> {
        let mut line = Vec::new();
        let mut index = 0;
        while let Some(c) = self.best_child(index) {
            let visits = self.nodes[c].visits;
            let node = &self.nodes[index];
            let siblings = node.first_child as usize..(node.first_child + node.children) as usize;
            let tied = siblings
                .filter(|&o| o != c)
                .any(|o| self.nodes[o].visits == visits);
            if visits == 0 || (!line.is_empty() && (visits < 2 || tied)) {
                break;
            }
            line.push(self.nodes[c].mv);
            index = c;
        }
        line
    }

    /// The searched part of the best line: the most visited child at each step, as long as it
    /// has been visited at least as often as its parent has moves (so every move there was tried
    /// and this one preferred). Its length is the search's depth.
    fn searched_line(&self) -> Vec<G::Move> {
        let mut line = Vec::new();
        let mut index = 0;
        while let Some(c) = self.best_child(index) {
            if self.nodes[c].visits < self.nodes[index].children.max(1) {
                break;
            }
            line.push(self.nodes[c].mv);
            index = c;
        }
        line
    }

    /// Whether the search has gone `depth` plies deep: its searched line is that long, or it
    /// cannot grow (it ends the game, or the tree is full).
    fn reached_depth(&self, depth: usize, root: &G, history: &[(u64, u32)]) -> bool {
        let line = self.searched_line();
        if self.full || line.len() >= depth {
            return true;
        }
        let mut pos = *root;
        let mut keys = history.to_vec();
        for mv in line {
            pos.play(mv);
            if is_repetition(&keys, &pos) {
                return true;
            }
            keys.push((pos.hash(), pos.irreversible_count()));
        }
        pos.outcome().is_some()
    }
}

fn is_repetition<G: Game>(path: &[(u64, u32)], pos: &G) -> bool {
    G::REPETITION_ENDS_GAME && {
        let (hash, mark) = (pos.hash(), pos.irreversible_count());
        path.iter()
            .rev()
            .take_while(|&&(_, m)| m == mark)
            .any(|&(h, _)| h == hash)
    }
}

/// Plays random moves to the end (or the cap) and returns who won (or leads at the cap).
fn playout<G: Game>(mut pos: G, rng: &mut Xoshiro256PlusPlus) -> Option<Player> {
    let mut moves = G::Moves::default();
    for _ in 0..PLAYOUT_CAP {
        pos.legal_moves(&mut moves);
        let list = moves.as_ref();
        if list.is_empty() {
            break;
        }
        pos.play(list[rng.random_range(0..list.len())]);
    }
    leading(&pos)
}

/// Runs UCT on the current position of `game` within `limits`.
pub fn search<G: Game>(
    game: &History<G>,
    limits: &Limits,
    settings: &Settings,
    clock: &Watch<'_>,
    fallback: G::Move,
    report: &mut dyn FnMut(&Info),
) -> G::Move {
    let root = *game.position();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(settings.seed ^ root.hash());
    let capacity = (settings.hash_mib.max(1) << 20) / std::mem::size_of::<Node<G::Move>>();
    let mut tree = Tree::<G> {
        nodes: Vec::with_capacity(capacity.min(1 << 16)),
        capacity: capacity.max(2),
        exploration: settings.mcts_exploration as f32 / 100.0,
        full: false,
    };
    tree.nodes.push(Node {
        mv: fallback,
        first_child: 0,
        children: 0,
        visits: 0,
        reward: 0.0,
        expanded: false,
    });
    tree.expand(0, &root);
    let history: Vec<(u64, u32)> = game
        .positions()
        .iter()
        .map(|p| (p.hash(), p.irreversible_count()))
        .collect();
    let mut path_keys = history.clone();
    // (node, player who made the node's move)
    let mut path: Vec<(usize, Player)> = Vec::new();
    let mut playouts: u64 = 0;
    let mut seldepth = 0;
    let mut next_report = 100;
    let node_limit = if limits.infinite { None } else { limits.nodes };
    let depth_limit = if limits.infinite { None } else { limits.depth };
    let make_info = |tree: &Tree<G>, playouts: u64, seldepth: usize| {
        // Before the first playout there is no estimate, and the move played is the fallback.
        let best = tree.best_child(0).filter(|&c| tree.nodes[c].visits > 0);
        let score = best.map(|c| {
            let n = &tree.nodes[c];
            let q = n.reward / n.visits as f32;
            Score::Centi(((2.0 * q - 1.0) * 100.0).round() as i32).into()
        });
        let pv = if best.is_some() {
            tree.pv()
        } else {
            vec![fallback]
        };
        Info {
            depth: tree.searched_line().len() as u32,
            seldepth: seldepth as u32,
            score,
            nodes: playouts,
            time_ms: clock.elapsed_ms(),
            hashfull: Some((tree.nodes.len() * 1000 / tree.capacity) as u32),
            playouts: Some(playouts),
            tbhits: None,
            pv: pv.into_iter().map(G::format_move).collect(),
        }
    };
    loop {
        if node_limit.is_some_and(|n| playouts >= n) {
            break;
        }
        if playouts & 63 == 0 && clock.must_stop(0) {
            break;
        }
        if playouts & 63 == 0
            && depth_limit.is_some_and(|d| tree.reached_depth(d as usize, &root, &history))
        {
            break;
        }
        let mut pos = root;
        let mut index = 0;
        path.clear();
        path_keys.truncate(history.len());
        let mut ended = false;
        loop {
            let node = &tree.nodes[index];
            if !node.expanded {
                if node.visits > 0 && !ended {
                    tree.expand(index, &pos);
                }
                if !tree.nodes[index].expanded || tree.nodes[index].children == 0 {
                    break;
                }
            } else if node.children == 0 {
                break;
            }
            let child = tree.select(index);
            let mover = pos.side_to_move();
            pos.play(tree.nodes[child].mv);
            path.push((child, mover));
            index = child;
            if is_repetition(&path_keys, &pos) {
                ended = true;
                break;
            }
            path_keys.push((pos.hash(), pos.irreversible_count()));
        }
        let winner = if ended {
            leading(&pos)
        } else {
            playout(pos, &mut rng)
        };
        tree.nodes[0].visits += 1;
        for &(n, mover) in &path {
            let node = &mut tree.nodes[n];
            node.visits += 1;
            node.reward += reward_for(winner, mover);
        }
        playouts += 1;
        seldepth = seldepth.max(path.len());
        if playouts & 255 == 0 && clock.elapsed_ms() >= next_report {
            report(&make_info(&tree, playouts, seldepth));
            next_report = clock.elapsed_ms() + 500;
        }
    }
    report(&make_info(&tree, playouts, seldepth));
    tree.best_child(0)
        .filter(|&c| tree.nodes[c].visits > 0)
        .map_or(fallback, |c| tree.nodes[c].mv)
}
