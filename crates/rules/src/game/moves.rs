//! The fixed-capacity move list that move generation fills.

use std::fmt;

/// A fixed-capacity list of moves that lives on the stack: move generation never allocates.
#[derive(Clone, Copy)]
pub struct MoveList<M: Copy, const N: usize> {
    moves: [M; N],
    len: usize,
}

impl<M: Copy + Default, const N: usize> Default for MoveList<M, N> {
    fn default() -> Self {
        MoveList {
            moves: [M::default(); N],
            len: 0,
        }
    }
}

impl<M: Copy, const N: usize> MoveList<M, N> {
    /// Appends a move. The capacity is the game's proven maximum, so this never overflows.
    #[inline]
    pub fn push(&mut self, mv: M) {
        self.moves[self.len] = mv;
        self.len += 1;
    }

    /// The moves as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[M] {
        &self.moves[..self.len]
    }

    /// The moves as a mutable slice (for ordering in the search).
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [M] {
        &mut self.moves[..self.len]
    }

    /// How many moves are in the list.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the list holds no move.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Empties the list (without rewriting its storage).
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Keeps only the moves for which `keep` holds, in order, in place.
    #[inline]
    pub fn retain(&mut self, mut keep: impl FnMut(M) -> bool) {
        let mut len = 0;
        for i in 0..self.len {
            let mv = self.moves[i];
            if keep(mv) {
                self.moves[len] = mv;
                len += 1;
            }
        }
        self.len = len;
    }

    /// Iterates over the moves.
    pub fn iter(&self) -> std::slice::Iter<'_, M> {
        self.as_slice().iter()
    }
}

impl<M: Copy, const N: usize> AsRef<[M]> for MoveList<M, N> {
    fn as_ref(&self) -> &[M] {
        self.as_slice()
    }
}

impl<M: Copy, const N: usize> AsMut<[M]> for MoveList<M, N> {
    fn as_mut(&mut self) -> &mut [M] {
        self.as_mut_slice()
    }
}

impl<M: Copy + fmt::Debug, const N: usize> fmt::Debug for MoveList<M, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retain_keeps_the_chosen_moves_in_order() {
        let mut list = MoveList::<u8, 8>::default();
        for mv in [5, 2, 8, 3, 6] {
            list.push(mv);
        }
        list.retain(|mv| mv % 2 == 0);
        assert_eq!(list.as_slice(), &[2, 8, 6]);
        list.retain(|_| false);
        assert!(list.is_empty());
        list.push(4);
        list.clear();
        assert!(list.is_empty());
        list.push(1);
        assert_eq!(list.as_slice(), &[1]);
    }
}
