//! A generation-checked slab: Java holds `u64` handles, never pointers, so a
//! stale or foreign handle is an error instead of a use-after-free.
//!
//! A handle packs `index` (bits 0..32), the slot's `generation` (32..56) and
//! the table's `tag` (56..63; bit 63 stays clear so handles are positive
//! `jlong`s). Freeing a slot bumps its generation; a slot whose generation
//! would wrap is retired rather than reused, so an old handle can never
//! become valid again. Tag [`SESSION_TAG`] is reserved for the table of
//! sessions, so a tensor handle is never mistaken for a session id.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU32, Ordering};

use crate::error::{Error, Result};

const INDEX_BITS: u32 = 32;
const GEN_BITS: u32 = 24;
const GEN_MAX: u32 = (1 << GEN_BITS) - 1;
const TAG_MAX: u32 = 127;
/// The tag of the session registry's ids; tensor tables never get it.
pub const SESSION_TAG: u32 = TAG_MAX;

static NEXT_TAG: AtomicU32 = AtomicU32::new(0);

struct Slot<T> {
    generation: u32,
    value: Option<T>,
}

struct Slab<T> {
    slots: Vec<Slot<T>>,
    free: Vec<u32>,
    counts: Counts,
    /// Set by [`HandleTable::close`]: nothing can be inserted any more.
    closed: bool,
}

/// How many values were ever inserted, and removed per kind (the caller's
/// reasons, e.g. explicit / scope / cleanup / close). Kept under the table's lock,
/// which every insert and remove takes anyway, so counting costs no atomic
/// operation of its own and a snapshot is always consistent:
/// `inserted == removed.sum() + live`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub inserted: u64,
    pub removed: [u64; REMOVE_KINDS],
    pub live: u64,
}

/// Number of removal kinds [`Counts`] tells apart.
pub const REMOVE_KINDS: usize = 4;

/// A thread-safe table of values addressed by generation-checked handles.
/// The lock is held only to move a value in or out, never while a value is
/// dropped or used.
pub struct HandleTable<T> {
    tag: u32,
    slab: Mutex<Slab<T>>,
}

impl<T: Clone> Default for HandleTable<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Clone> HandleTable<T> {
    pub fn new() -> HandleTable<T> {
        // Tags 1..=126 in turn: a handle from another table is caught unless the
        // tags collide, and even then it can only name a live value of that table.
        let tag = NEXT_TAG.fetch_add(1, Ordering::Relaxed) % (SESSION_TAG - 1) + 1;
        Self::with_tag(tag)
    }

    /// A table whose handles carry `tag` (at most 127), e.g. [`SESSION_TAG`].
    pub fn with_tag(tag: u32) -> HandleTable<T> {
        assert!(
            tag <= TAG_MAX,
            "handle table tag {tag} needs more than 7 bits"
        );
        HandleTable {
            tag,
            slab: Mutex::new(Slab {
                slots: Vec::new(),
                free: Vec::new(),
                counts: Counts::default(),
                closed: false,
            }),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Slab<T>> {
        // A panic while holding this lock cannot leave the slab inconsistent
        // (every mutation is a single assignment), so poisoning is ignored.
        self.slab.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn encode(&self, index: u32, generation: u32) -> u64 {
        u64::from(index) | (u64::from(generation) << INDEX_BITS) | (u64::from(self.tag) << 56)
    }

    fn decode(&self, handle: u64) -> Result<(usize, u32)> {
        let tag = (handle >> 56) as u32;
        if tag != self.tag {
            return Err(Error::state(format!(
                "handle {handle:#x} does not belong to this session"
            )));
        }
        let index = (handle & 0xffff_ffff) as usize;
        let generation = ((handle >> INDEX_BITS) as u32) & GEN_MAX;
        Ok((index, generation))
    }

    /// Stores `value` and returns its handle.
    pub fn insert(&self, value: T) -> Result<u64> {
        let mut slab = self.lock();
        self.insert_locked(&mut slab, value)
    }

    fn insert_locked(&self, slab: &mut Slab<T>, value: T) -> Result<u64> {
        if slab.closed {
            return Err(Error::state(crate::wire::CLOSED_MESSAGE));
        }
        let index = match slab.free.pop() {
            Some(i) => i,
            None => {
                let i = u32::try_from(slab.slots.len())
                    .map_err(|_| Error::state("handle table is full"))?;
                // The free list has room for every slot, so freeing one never
                // needs to allocate.
                crate::alloc::reserve_one(&mut slab.slots)?;
                let free = slab.free.len();
                crate::alloc::reserve(&mut slab.free, slab.slots.capacity().saturating_sub(free))?;
                slab.slots.push(Slot {
                    generation: 1,
                    value: None,
                });
                i
            }
        };
        let slot = &mut slab.slots[index as usize];
        slot.value = Some(value);
        let generation = slot.generation;
        slab.counts.inserted += 1;
        slab.counts.live += 1;
        Ok(self.encode(index, generation))
    }

    /// Stores every value under one lock, all or none.
    pub fn insert_all<H>(&self, values: impl ExactSizeIterator<Item = T>) -> Result<H>
    where
        H: Default + Extend<u64> + AsRef<[u64]>,
    {
        let mut handles = H::default();
        let mut slab = self.lock();
        for v in values {
            match self.insert_locked(&mut slab, v) {
                Ok(h) => handles.extend(std::iter::once(h)),
                Err(e) => {
                    let taken: Vec<T> = handles
                        .as_ref()
                        .iter()
                        .filter_map(|&h| self.take(&mut slab, h))
                        .collect();
                    // Undone inserts were never handed out: not counted at all.
                    slab.counts.inserted -= taken.len() as u64;
                    drop(slab);
                    drop(taken);
                    return Err(e);
                }
            }
        }
        Ok(handles)
    }

    /// A clone of the value behind `handle`.
    pub fn get(&self, handle: u64) -> Result<T> {
        self.decode(handle)?;
        self.find(handle)
            .ok_or_else(|| Error::state(format!("tensor handle {handle:#x} has been released")))
    }

    /// A clone of the value behind `handle`; `None` if it was removed, never
    /// existed or belongs to another table.
    pub fn find(&self, handle: u64) -> Option<T> {
        let (index, generation) = self.decode(handle).ok()?;
        let slab = self.lock();
        match slab.slots.get(index) {
            Some(Slot {
                generation: g,
                value: Some(v),
            }) if *g == generation => Some(v.clone()),
            _ => None,
        }
    }

    /// Whether this table ever handed out `handle` (it may have been removed
    /// since): its tag, and a generation its slot has reached.
    pub fn issued(&self, handle: u64) -> bool {
        let Ok((index, generation)) = self.decode(handle) else {
            return false;
        };
        let slab = self.lock();
        slab.slots.get(index).is_some_and(|s| {
            generation != 0
                && (generation < s.generation || (generation == s.generation && s.value.is_some()))
        })
    }

    /// Clones of the values behind `handles`, taken under one lock.
    pub fn get_many(&self, handles: &[u64], out: &mut impl Extend<T>) -> Result<()> {
        // Foreign handles are refused before the lock is taken.
        for &h in handles {
            self.decode(h)?;
        }
        let slab = self.lock();
        for &handle in handles {
            let (index, generation) = self.decode(handle)?;
            match slab.slots.get(index) {
                Some(Slot {
                    generation: g,
                    value: Some(v),
                }) if *g == generation => out.extend(std::iter::once(v.clone())),
                _ => {
                    return Err(Error::state(format!(
                        "tensor handle {handle:#x} has been released"
                    )));
                }
            }
        }
        Ok(())
    }

    /// Runs `f` on the value behind `handle` under the table's lock (for rare
    /// in-place writes to standalone tensors).
    pub fn update<R>(&self, handle: u64, f: impl FnOnce(&mut T) -> Result<R>) -> Result<R> {
        let (index, generation) = self.decode(handle)?;
        let mut slab = self.lock();
        match slab.slots.get_mut(index) {
            Some(Slot {
                generation: g,
                value: Some(v),
            }) if *g == generation => f(v),
            _ => Err(Error::state(format!(
                "tensor handle {handle:#x} has been released"
            ))),
        }
    }

    /// Takes a value out without counting it as removed (the caller does).
    fn take(&self, slab: &mut Slab<T>, handle: u64) -> Option<T> {
        let (index, generation) = self.decode(handle).ok()?;
        let slot = slab.slots.get_mut(index)?;
        if slot.generation != generation || slot.value.is_none() {
            return None;
        }
        let value = slot.value.take();
        slot.generation += 1;
        if slot.generation < GEN_MAX {
            slab.free.push(index as u32);
        }
        slab.counts.live -= 1;
        value
    }

    /// Takes the value out, counted as removed for reason `kind`
    /// (`< REMOVE_KINDS`); `None` if the handle was already removed or is
    /// foreign. The caller drops the value, outside the lock.
    pub fn remove(&self, handle: u64, kind: usize) -> Option<T> {
        let mut slab = self.lock();
        let v = self.take(&mut slab, handle);
        if v.is_some() {
            slab.counts.removed[kind] += 1;
        }
        v
    }

    /// Takes out every value still present, under one lock, counted as
    /// removed for reason `kind`.
    pub fn remove_many(&self, handles: &[u64], kind: usize) -> Vec<T> {
        let mut slab = self.lock();
        let out: Vec<T> = handles
            .iter()
            .filter_map(|&h| self.take(&mut slab, h))
            .collect();
        slab.counts.removed[kind] += out.len() as u64;
        out
    }

    /// Takes out every value, counted as removed for reason `kind`.
    pub fn drain(&self, kind: usize) -> Vec<T> {
        let mut slab = self.lock();
        Self::drain_locked(&mut slab, kind)
    }

    /// Takes out every value like [`drain`](Self::drain) and refuses every
    /// later insert, so the counts are final: a call that still holds the
    /// table (one that raced with closing its session) can add nothing. The
    /// slots' memory goes too; no handle can become valid again, since no
    /// slot is ever filled again.
    pub fn close(&self, kind: usize) -> Vec<T> {
        let mut slab = self.lock();
        let out = Self::drain_locked(&mut slab, kind);
        slab.closed = true;
        slab.slots = Vec::new();
        slab.free = Vec::new();
        out
    }

    fn drain_locked(slab: &mut Slab<T>, kind: usize) -> Vec<T> {
        let live = slab.counts.live as usize;
        // The values are dropped by the caller, after the lock is let go; if
        // no room can be had for them, they are dropped here, under it.
        let mut out = crate::alloc::with_room(live).unwrap_or_default();
        let room = out.capacity() >= live;
        let mut removed = 0;
        for (i, slot) in slab.slots.iter_mut().enumerate() {
            if let Some(v) = slot.value.take() {
                removed += 1;
                if room {
                    out.push(v);
                }
                slot.generation += 1;
                if slot.generation < GEN_MAX {
                    slab.free.push(i as u32);
                }
            }
        }
        slab.counts.removed[kind] += removed;
        slab.counts.live = 0;
        out
    }

    /// A consistent snapshot of the counters.
    pub fn counts(&self) -> Counts {
        self.lock().counts
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stale_and_foreign_handles_are_errors() -> Result<()> {
        let t = HandleTable::<u32>::new();
        let other = HandleTable::<u32>::new();
        let h = t.insert(7)?;
        assert!(h > 0 && (h as i64) > 0);
        assert_eq!(t.get(h)?, 7);
        assert!(other.get(h).is_err());
        assert_eq!(t.remove(h, 0), Some(7));
        assert!(t.get(h).is_err());
        assert_eq!(t.remove(h, 0), None);
        let h2 = t.insert(8)?;
        assert_ne!(h, h2, "a reused slot has a new generation");
        assert!(t.get(h).is_err());
        assert_eq!(t.counts().live, 1);
        assert_eq!(t.drain(2), vec![8]);
        let c = t.counts();
        assert_eq!((c.inserted, c.removed, c.live), (2, [1, 0, 1, 0], 0));
        Ok(())
    }

    #[test]
    fn closed_table_refuses_inserts_and_keeps_final_counts() -> Result<()> {
        let t = HandleTable::<u32>::new();
        let a = t.insert(1)?;
        let b = t.insert(2)?;
        assert!(t.remove(a, 0).is_some());
        assert!(t.issued(a) && t.issued(b));
        assert!(
            !t.issued(t.encode(0, 2)),
            "the generation after a removal is not issued yet"
        );
        assert!(!t.issued(t.encode(7, 1)) && !t.issued(b ^ (1 << 56)));
        assert_eq!(t.close(2), vec![2]);
        assert!(t.insert(3).is_err());
        assert!(t.insert_all::<Vec<u64>>([4, 5].into_iter()).is_err());
        assert!(t.get(b).is_err() && t.find(a).is_none() && t.remove(b, 0).is_none());
        assert!(t.update(b, |_| Ok(())).is_err());
        let c = t.counts();
        assert_eq!((c.inserted, c.removed, c.live), (2, [1, 0, 1, 0], 0));
        Ok(())
    }

    #[test]
    fn tensor_tables_never_get_the_session_tag() {
        for _ in 0..300 {
            assert_ne!(HandleTable::<u8>::new().tag, SESSION_TAG);
        }
    }

    #[test]
    fn exhausted_generation_retires_slot() -> Result<()> {
        let t = HandleTable::<u32>::new();
        t.insert(1)?;
        t.lock().slots[0].generation = GEN_MAX - 1;
        assert_eq!(t.remove(t.encode(0, GEN_MAX - 1), 0), Some(1));
        // slot 0 reached GEN_MAX and is retired: the next insert gets a new slot
        let h2 = t.insert(3)?;
        assert_eq!(h2 & 0xffff_ffff, 1);
        Ok(())
    }
}
