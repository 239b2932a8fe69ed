//! Topological order and cycle finding, both iterative (a 1,000,000-op chain must not
//! overflow the stack).

use crate::graph::{OpId, TensorId};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

/// Kahn's algorithm with ties broken by source position (the smallest op index first).
/// `indegree[o]` is the number of distinct ops producing `o`'s inputs. Returns the order and
/// the ops that never became ready (on or after a cycle).
pub fn topo_sort<'c>(
    mut indegree: Vec<usize>,
    consumers_of_tensor: impl Fn(usize) -> &'c [OpId],
    output: impl Fn(usize) -> TensorId,
) -> (Vec<OpId>, Vec<usize>) {
    let n = indegree.len();
    let mut ready: BinaryHeap<Reverse<OpId>> = (0..n)
        .filter(|&o| indegree[o] == 0)
        .map(|o| Reverse(OpId(o as u32)))
        .collect();
    let mut order = Vec::with_capacity(n);
    while let Some(Reverse(o)) = ready.pop() {
        order.push(o);
        for &c in consumers_of_tensor(output(o.index()).index()) {
            let d = &mut indegree[c.index()];
            *d -= 1;
            if *d == 0 {
                ready.push(Reverse(c));
            }
        }
    }
    let stuck = if order.len() == n {
        Vec::new()
    } else {
        (0..n).filter(|&o| indegree[o] > 0).collect()
    };
    (order, stuck)
}

/// One cycle per strongly connected component of `nodes` (ops left over by Kahn's
/// algorithm) that holds a cycle, each starting at its first op in source order and
/// following `succ` (the consumers of an op's output).
pub fn cycles<'c>(nodes: &[usize], succ: impl Fn(usize) -> &'c [OpId]) -> Vec<Vec<usize>> {
    let n = nodes.iter().copied().max().map_or(0, |m| m + 1);
    let mut member = vec![false; n];
    for &v in nodes {
        member[v] = true;
    }
    let comp = tarjan(nodes, &member, &succ);
    // Group members per component.
    let mut by_comp: std::collections::BTreeMap<usize, Vec<usize>> = Default::default();
    for &v in nodes {
        by_comp.entry(comp[v]).or_default().push(v);
    }
    let mut out = Vec::new();
    let mut comps: Vec<Vec<usize>> = by_comp.into_values().collect();
    comps.sort_by_key(|c| c.iter().copied().min());
    for members in comps {
        let start = members.iter().copied().min().unwrap_or(0);
        let c = comp[start];
        let self_loop = succ(start).iter().any(|w| w.index() == start);
        if members.len() == 1 && !self_loop {
            continue;
        }
        if self_loop {
            out.push(vec![start]);
            continue;
        }
        // Shortest path start → … → start inside the component (BFS).
        let mut parent: std::collections::HashMap<usize, usize> = Default::default();
        let mut queue = VecDeque::from([start]);
        let mut last = None;
        'bfs: while let Some(v) = queue.pop_front() {
            for w in succ(v).iter().map(|w| w.index()) {
                if w >= n || !member[w] || comp[w] != c {
                    continue;
                }
                if w == start {
                    last = Some(v);
                    break 'bfs;
                }
                if let std::collections::hash_map::Entry::Vacant(e) = parent.entry(w) {
                    e.insert(v);
                    queue.push_back(w);
                }
            }
        }
        let Some(mut v) = last else { continue };
        let mut path = vec![v];
        while v != start {
            v = parent[&v];
            path.push(v);
        }
        path.reverse();
        out.push(path);
    }
    out
}

/// Iterative Tarjan: the component index of every node in `nodes`.
fn tarjan<'c>(nodes: &[usize], member: &[bool], succ: &impl Fn(usize) -> &'c [OpId]) -> Vec<usize> {
    let n = member.len();
    const UNSEEN: usize = usize::MAX;
    let mut index = vec![UNSEEN; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut comp = vec![UNSEEN; n];
    let mut stack = Vec::new();
    let mut next = 0;
    let mut ncomp = 0;
    for &root in nodes {
        if index[root] != UNSEEN {
            continue;
        }
        let mut call: Vec<(usize, usize)> = vec![(root, 0)];
        index[root] = next;
        low[root] = next;
        next += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (v, ref mut i)) = call.last_mut() {
            let edges = succ(v);
            if *i < edges.len() {
                let w = edges[*i].index();
                *i += 1;
                if w >= n || !member[w] {
                    continue;
                }
                if index[w] == UNSEEN {
                    index[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    call.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
            } else {
                call.pop();
                if let Some(&(parent, _)) = call.last() {
                    low[parent] = low[parent].min(low[v]);
                }
                if low[v] == index[v] {
                    while let Some(w) = stack.pop() {
                        on_stack[w] = false;
                        comp[w] = ncomp;
                        if w == v {
                            break;
                        }
                    }
                    ncomp += 1;
                }
            }
        }
    }
    comp
}
