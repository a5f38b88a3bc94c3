//! Building the book: deep searches of the first plies, backed up by minimax, expanded by
//! drop-out expansion (Lincke's method, which built the Awari books of the Olympiad programs).
//!
//! Every position up to `full_plies` is expanded: each of its moves is valued. Then, while the
//! search budget lasts, the leaf expanded next is the one with the lowest cost, where a path
//! costs one per ply plus its drop-out, the value each side gave up on the way (by playing a
//! move worse than the best there), at [`DROPOUT_CP_PER_PLY`]. So the book goes deep along the
//! moves it would play itself and the replies a strong opponent would choose, and stays shallow
//! where a side errs. A leaf is valued by an alpha-beta search of fixed depth (deterministic:
//! the same command writes the same file), sharing one transposition table.

use std::collections::{BinaryHeap, HashMap, HashSet};
use std::sync::atomic::AtomicBool;

use crate::search::{Info, Limits, Score, Searcher, Settings};
use pion_rules::awale::{Awale, Variant};
use pion_rules::game::{Game, History};

/// How much value one side's drop-out costs, in hundredths of a seed, against one ply of depth.
pub const DROPOUT_CP_PER_PLY: i64 = 50;

/// What `pion book build` was asked for.
#[derive(Clone, Copy, Debug)]
pub struct Plan {
    /// The Awale variant.
    pub variant: Variant,
    /// Depth of the search that values a leaf.
    pub depth: u32,
    /// Every position up to this ply is expanded.
    pub full_plies: u32,
    /// The most leaf searches in all.
    pub searches: usize,
    /// Transposition table size in MiB.
    pub hash_mib: usize,
}

/// A position of the book's tree.
struct Node {
    pos: Awale,
    ply: u32,
    /// The leaf search's value and depth, for the side to move.
    leaf: (Score, u32),
    /// The moves and the positions they lead to, once expanded.
    children: Option<Vec<(<Awale as Game>::Move, String)>>,
}

/// The book's tree and the searcher that values its leaves.
struct Tree {
    plan: Plan,
    nodes: HashMap<String, Node>,
    searcher: Searcher<Awale>,
    searches: usize,
}

impl Tree {
    /// The value of `pos` for the side to move: exact when the game is over, else a search.
    fn value(&mut self, pos: &Awale) -> (Score, u32) {
        if pos.outcome().is_some() {
            let margin = pos.margin();
            let score = match margin {
                0 => Score::Draw,
                m if m > 0 => Score::Win(m as u32),
                m => Score::Loss(m.unsigned_abs()),
            };
            return (score, 0);
        }
        self.searches += 1;
        let limits = Limits {
            depth: Some(self.plan.depth),
            ..Limits::default()
        };
        let mut last: Option<Info> = None;
        let stop = AtomicBool::new(false);
        self.searcher
            .search(&History::new(*pos), &limits, &stop, &mut |info| {
                if info.score.is_some() {
                    last = Some(info.clone());
                }
            });
        let info = last.expect("a search of a live position reports a score");
        (info.score.map_or(Score::Draw, |s| s.value), info.depth)
    }

    /// Adds a position reached at `ply` (valued by a search), unless it is known already.
    fn add(&mut self, pos: Awale, ply: u32) -> String {
        let key = pos.format_position();
        if !self.nodes.contains_key(&key) {
            let leaf = self.value(&pos);
            self.nodes.insert(
                key.clone(),
                Node {
                    pos,
                    ply,
                    leaf,
                    children: None,
                },
            );
        }
        key
    }

    /// Values every move of a position.
    fn expand(&mut self, key: &str) {
        let (pos, ply) = {
            let node = &self.nodes[key];
            (node.pos, node.ply)
        };
        let mut moves = <Awale as Game>::Moves::default();
        pos.legal_moves(&mut moves);
        let mut children = Vec::new();
        for &mv in moves.as_ref() {
            let mut child = pos;
            child.play(mv);
            children.push((mv, self.add(child, ply + 1)));
        }
        if let Some(node) = self.nodes.get_mut(key) {
            node.children = Some(children);
        }
    }

    /// Minimax values of every expanded position: its moves' scores and depths, best first.
    fn backed_up(&self) -> HashMap<String, Vec<(String, Score, u32)>> {
        let mut values = HashMap::new();
        let mut on_path = HashSet::new();
        for key in self.nodes.keys() {
            self.back_up(key, &mut values, &mut on_path);
        }
        values
    }

    /// The value of one position (memoised in `values`, for expanded ones).
    fn back_up(
        &self,
        key: &str,
        values: &mut HashMap<String, Vec<(String, Score, u32)>>,
        on_path: &mut HashSet<String>,
    ) -> (Score, u32) {
        let node = &self.nodes[key];
        let Some(children) = &node.children else {
            return node.leaf;
        };
        if let Some(moves) = values.get(key) {
            let (_, score, depth) = &moves[0];
            return (*score, *depth);
        }
        // A position that repeats on its own line is valued by its search there.
        if !on_path.insert(key.to_string()) {
            return node.leaf;
        }
        let mut moves: Vec<(String, Score, u32)> = children
            .iter()
            .map(|(mv, child)| {
                let (score, depth) = self.back_up(child, values, on_path);
                (Awale::format_move(*mv), -score, depth + 1)
            })
            .collect();
        on_path.remove(key);
        moves.sort_by_key(|(_, score, _)| std::cmp::Reverse(score.rank()));
        let best = (moves[0].1, moves[0].2);
        values.insert(key.to_string(), moves);
        best
    }

    /// The unexpanded position of least cost (plies plus drop-out from the root), if any.
    fn next_leaf(&self, root: &str) -> Option<String> {
        let values = self.backed_up();
        let mut cost: HashMap<&str, i64> = HashMap::new();
        let mut queue = BinaryHeap::new();
        queue.push(std::cmp::Reverse((0i64, root)));
        while let Some(std::cmp::Reverse((c, key))) = queue.pop() {
            if cost.contains_key(key) {
                continue;
            }
            cost.insert(key, c);
            let node = &self.nodes[key];
            let Some(children) = &node.children else {
                if node.pos.outcome().is_none() {
                    return Some(key.to_string());
                }
                continue;
            };
            let moves = &values[key];
            let best = moves[0].1.rank();
            for (mv, child) in children {
                let text = Awale::format_move(*mv);
                let (_, score, _) = moves.iter().find(|m| m.0 == text).expect("valued move");
                let dropout = (best - score.rank()).min(1 << 20);
                queue.push(std::cmp::Reverse((
                    c + DROPOUT_CP_PER_PLY + dropout,
                    child.as_str(),
                )));
            }
        }
        None
    }
}

/// Builds the book of `plan`, calling `progress` after each expansion with the searches made so
/// far, and returns the file's text (`command` goes in its header).
pub fn build(plan: Plan, command: &str, mut progress: impl FnMut(usize)) -> String {
    let settings = Settings {
        hash_mib: plan.hash_mib,
        ..Settings::default()
    };
    let mut tree = Tree {
        plan,
        nodes: HashMap::new(),
        searcher: Searcher::new(settings),
        searches: 0,
    };
    let root = tree.add(Awale::start(plan.variant), 0);
    let mut frontier = vec![root.clone()];
    for _ in 0..=plan.full_plies {
        let mut next = Vec::new();
        for key in frontier {
            if tree.nodes[&key].children.is_some() || tree.nodes[&key].pos.outcome().is_some() {
                continue;
            }
            tree.expand(&key);
            progress(tree.searches);
            if let Some(children) = &tree.nodes[&key].children {
                next.extend(children.iter().map(|(_, child)| child.clone()));
            }
        }
        frontier = next;
    }
    while tree.searches < plan.searches {
        let Some(leaf) = tree.next_leaf(&root) else {
            break;
        };
        tree.expand(&leaf);
        progress(tree.searches);
    }
    write(&tree, command)
}

/// The file's text: the header, then every expanded position by ply and notation.
fn write(tree: &Tree, command: &str) -> String {
    let values = tree.backed_up();
    let mut keys: Vec<&String> = values.keys().collect();
    keys.sort_by_key(|k| (tree.nodes[*k].ply, k.as_str()));
    let mut text = format!(
        "# {command}\n\
         # Awale opening book: every position's moves with their value for the side to move\n\
         # (protocol.md's scores, hundredths of a seed) and the depth behind it, best first.\n\
         # Leaves searched to depth {} ({} searches), values backed up by minimax.\n\
         variant {}\n",
        tree.plan.depth,
        tree.searches,
        Awale::variant_name(tree.plan.variant)
    );
    let mut ply = None;
    for key in keys {
        let node_ply = tree.nodes[key].ply;
        if ply != Some(node_ply) {
            text.push_str(&format!("# ply {node_ply}\n"));
            ply = Some(node_ply);
        }
        let moves: Vec<String> = values[key]
            .iter()
            .map(|(mv, score, depth)| format!("{mv} {score} d{depth}"))
            .collect();
        text.push_str(&format!("{key} : {}\n", moves.join(", ")));
    }
    text
}
