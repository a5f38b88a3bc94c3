//! The principal variation and the root's report.

use super::*;

impl<G: Evaluate> Search<'_, G> {
    /// The report of the root after a search to `depth`: the principal variation, or only
    /// `best` when given and the line does not start with it, and the counters.
    pub(super) fn root_info(
        &self,
        depth: u32,
        score: Option<Score>,
        score_bound: bool,
        best: Option<G::Move>,
    ) -> Info {
        let mut pv = self.pv_moves();
        if let Some(mv) = best
            && pv.first() != Some(&mv)
        {
            pv = vec![mv];
        }
        // A proven line goes to the end of the game; another one no deeper than the search.
        let proven = matches!(score, Some(Score::Win(_) | Score::Draw | Score::Loss(_)));
        self.extend_from_table(&mut pv, if proven { MAX_PLY } else { depth as usize });
        Info {
            depth,
            // A line cut short by a table hit and completed from the table is as deep as it is.
            seldepth: self.seldepth.max(pv.len()) as u32,
            score: score.map(|s| EngineScore::new(s, score_bound)),
            nodes: self.nodes,
            time_ms: self.clock.elapsed_ms(),
            hashfull: Some(self.tt.hashfull()),
            playouts: None,
            // Other searches may probe meanwhile (bench, a second session): a count, not a
            // ledger.
            tbhits: crate::egtb::installed()
                .then(|| crate::egtb::hits().saturating_sub(self.tb_start)),
            pv: pv.iter().map(|&m| G::format_move(m)).collect(),
        }
    }

    /// Completes `line` (from the root) with the table's moves up to `max_len` moves: a table
    /// hit ends the searched line where the stored entry was enough. Only legal moves, and not
    /// past the end of the game or a position the line already met.
    pub(super) fn extend_from_table(&self, line: &mut Vec<G::Move>, max_len: usize) {
        let mut pos = self.root;
        let mut seen = vec![pos.hash()];
        for &mv in line.iter() {
            pos.play(mv);
            seen.push(pos.hash());
        }
        while line.len() < max_len && pos.outcome().is_none() {
            let Some(hit) = self.tt.probe(pos.hash()).filter(|hit| hit.mv != 0) else {
                break;
            };
            let mv = G::decode_move(hit.mv);
            if !pos.is_legal(mv) {
                break;
            }
            pos.play(mv);
            if seen.contains(&pos.hash()) {
                break;
            }
            seen.push(pos.hash());
            line.push(mv);
        }
    }

    pub(super) fn pv_moves(&self) -> Vec<G::Move> {
        self.pv[0][..self.pv_len[0]]
            .iter()
            .map(|&c| G::decode_move(c))
            .collect()
    }
}
