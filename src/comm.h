/* comm.h — cost of collectives over a group of chips on a topology.
 *
 * Owns the alpha-beta model of AllGather, ReduceScatter, AllReduce, AllToAll
 * and point-to-point on a 1D ring, a 2D/3D torus (TPU ICI, per axis), an
 * NVLink switch domain and a two-level fabric (ICI/NVLink inside a domain of
 * hw->domain_chips chips, InfiniBand/RoCE/DCN between domains).  Uses spec
 * (rl_hw).
 *
 * Each level costs time = max(latency term, bandwidth term) (seed 000
 * Appendix C: T = max(T_min * |X| / 2, B / W_ici)); the result says which
 * term won ("latency-bound" when the latency term is the larger).  `bytes`
 * is always the size of the whole (unsharded) array the collective works on:
 * the AllGather's output, the ReduceScatter's input, the AllReduce's array,
 * the AllToAll's array summed over the group (the Scaling Book's V).
 *
 * Per level (g chips, W = hw->ici_bw one-way per link, a = per-hop latency):
 *   ring / torus axis of size k (rl_comm_torus_axis), AllGather =
 *     ReduceScatter:
 *     - with its wraparound link (which axes have one: below): a
 *       bidirectional ring does ceil((k-1)/2) = floor(k/2) steps, each
 *       moving bytes/g over one link per direction: latency floor(k/2) a,
 *       bandwidth bytes / (2 W) (the Scaling Book's V / W_ici with W_ici =
 *       2W bidirectional, "Sharded Matrices"; exact for even k);
 *     - without it, a line: k - 1 hops, and its end chip takes in the k-1
 *       other pieces of bytes/k over its one link: latency (k-1) a,
 *       bandwidth bytes (k-1) / (k W), up to twice the ring's.  The
 *       book's own figure ("Sharded Matrices", Pop Quiz 2: AllGather_Y
 *       of bf16[2048, 8192] over a v5e mesh axis of 4): "TPU v5e only has
 *       a wraparound connection when one axis has size 16, so here we
 *       actually can't do a fully bidirectional AllGather. We have to do
 *       3 hops ... T = 3 * 8.4e6 / 4.5e10 = 560us" against V / W_ici =
 *       377 us with it; "at most 3 hops" of latency.  An axis of 2 costs
 *       the same either way (one hop, bytes / (2 W)).
 *     A group spanning several torus axes pays each axis's hops and its
 *     axes carry the array at once, each at its own rate (2 W with
 *     wraparound, W k/(k-1) without): bandwidth bytes / (W sum of rates),
 *     the book's V / (W_ici n_axes) when every axis wraps ("What happens
 *     when we AllGather over multiple axes?").  Until issue 12's fixUC
 *     every axis of an AllGather, ReduceScatter or AllReduce wrapped
 *     (only the AllToAll followed the rule): 16 v5e (4x4, none wraps)
 *     read 4 hops and bytes / (4 W) for 6 hops and 3 bytes / (8 W); an
 *     AllReduce over 8 (2x4, the 4 without) 6 hops and 2 bytes / (4 W)
 *     for 8 hops and 6 bytes / (10 W).
 *   switch (NVLink + NVSwitch): every GPU reaches every other in one hop,
 *     so the direct algorithm (each GPU writes its piece to all others at
 *     once, as NCCL's NVLS and TensorRT-LLM's one-shot kernels do) takes one
 *     step: latency a, bandwidth bytes (g-1) / (g W links) (the ring's
 *     bandwidth: each GPU still receives (g-1)/g of the array).
 *   AllReduce = ReduceScatter + AllGather (twice both terms), except on a
 *     switch inside one domain, where it is the cheapest of three
 *     algorithms (max of its terms), since the engines pick by size:
 *     - two-shot: ReduceScatter + AllGather as above, latency 2a,
 *       bandwidth 2 bytes (g-1) / (g W links);
 *     - one-shot: behind one synchronisation every GPU reads the whole
 *       array from each of the g-1 others over NVLink and reduces it
 *       locally: latency a, bandwidth bytes (g-1) / (W links).  TensorRT-LLM
 *       runs it up to a size threshold (cpp/tensorrt_llm/kernels/
 *       customAllReduceKernels.cu, oneShotAllReduceKernel: each rank loads
 *       elts_total elements from every rank's buffer), vLLM over 2 GPUs and
 *       below 512 KiB over 4, 256 KiB over 8 (csrc/custom_all_reduce.cuh,
 *       cross_device_reduce_1stage; the two-shot is its _2stage, whose
 *       second synchronisation separates the two halves);
 *     - in the switch, where hw->nvls (NVLink SHARP, NVLink4 and later:
 *       NCCL's NVLS algorithm): a reduce-scatter the switch reduces
 *       (multimem loads) and its multicast: each GPU sends its array and
 *       its reduced piece and receives the same, (g+1)/g of the bytes each
 *       way instead of the two-shot's 2 (g-1)/g (NVIDIA/nccl-tests issue
 *       #238); latency 2a, bandwidth bytes (g+1) / (g W links).
 *     Before stop 24 the model charged every switch AllReduce the
 *     two-shot, above 30 of 459 measured points on h100-sxm, 33 on h200,
 *     5 on a100-sxm-80g and 5 on gb200 (TensorRT-LLM's one-shot over 2
 *     H100: 2.65 us measured, 4 us modelled; NCCL's NVLS 1 GiB over 8 H100:
 *     4.01 ms, 4.18 ms modelled; review23 M4); now under every point
 *     (test_comm ideal_below_every_measured_point).
 *   AllToAll on a ring/torus: the bisection of the group's k1 x k2 x k3
 *     sub-torus (axes from rl_comm_torus_axes).  Every chip sends V/g^2 to
 *     every chip (V/g its buffer), so (g/2)(g/2) V/g^2 = V/4 crosses the
 *     middle of an axis of size k each way, over the g/k lines along it: 2
 *     links a line and direction where the axis has its wraparound, 1
 *     without; W each.  Time V k / (8 g W) with wraparound (the Scaling
 *     Book's V / (4 W_ici) with W_ici = 2W bidirectional, "Sharded
 *     Matrices", AllToAll: each device sends N^2/4 chunks of bytes/N^2 on a
 *     ring, k = g), V k / (4 g W) without, the largest over the axes (they
 *     carry their traffic at once, dimension-ordered).  So the time falls
 *     as the group grows past the ring: 4x4x4 v5p chips V / (128 W), where
 *     until issue 12's fixTA every group read V / (8 W n_axes), the ring's
 *     bisection whatever its size (DeepSeek-V3's 470 MB MoE dispatch at
 *     batch 4096 on tpu-v5p: 217.5 us from ep8 to ep256; now 326.2 us at
 *     ep8 (2x2x2, no wraparound), 40.8 at ep64, 20.4 at ep256).  Which axes
 *     wrap (Scaling Book, "How to Think About TPUs"): a ring's always; a 3D
 *     torus's when every axis is a multiple of 4 (v4/v5p slices of whole
 *     4x4x4 cubes, joined by optical switches: "smaller topologies (e.g.
 *     2x2x1, 2x2x2) ... no wraparounds", nor a 2x2x4); a 2D torus's on an
 *     axis as long as the domain's longest (v5e/v6e: 16 of 16x16).  Latency:
 *     the hops to the farthest chip, floor(k/2) a per axis with wraparound,
 *     (k-1) a without (the book's 4x4 v5e: six hops from (0,0) to (3,3)),
 *     as for the AllGather above: one rule decides the wraparound and the
 *     hops of every collective (rl_comm_torus_axis).  On a switch every
 *     chip sends (g-1)/g of its bytes/g directly: bytes (g-1)/(g^2 W
 *     links), latency a.
 *   point-to-point: bytes / W (one link; a switch's links * W), latency a.
 * Two levels (the group crosses domains, see rl_comm_time): hierarchical —
 * the inner collective over the d members sharing a domain on ICI/NVLink and
 * the outer one over g/d of them on the network (net_bw per chip,
 * net_latency per step, ring algorithm: g/d - 1 steps) carrying bytes/d per
 * chip; AllToAll sends the (g-d)/g of each chip's piece bound elsewhere over
 * the network; the two levels add.
 * Placement (issue 12, fixUH): a group of g chips `stride` apart in the
 * chip order sits in the slice as the chip order fills it, squarest
 * sub-slice first (rl_comm_torus_axes: v5e 4 -> 2x2, 8 -> 2x4, 16 ->
 * 4x4): the `stride` chips between two members form a tile of that many
 * chips' shape, and the g*stride chips from a member to the next group's
 * first one a sub-slice of that shape; the group has span/tile members
 * along each axis, tile chips apart (rl_comm_torus_place).  A stride-1
 * group is its size's squarest sub-slice, as before.  On a 4x4 the 2D
 * plan's X pairs (2 chips 8 apart: tile 2x4, span 4x4) lie along one
 * axis, 2 hops apart; an EP group of 4 with stride 4 is a 2x2 of chips 2
 * apart.  The Scaling Book prices a collective over an axis by its hops
 * and its links (AllGather over an axis, "Sharded Matrices"; neighbours
 * only, "How to Think About TPUs": chips not adjacent go through those
 * between) and is silent on members that are not adjacent; our rule: an
 * axis of n members s chips apart costs s times the hops of its n (the
 * path between two members is s links), and each of its links is shared
 * by the s groups interleaved along that line (all run at once, offset by
 * one chip), so the axis moves 1/s of its rate: bytes / (W sum_i
 * rate_i / s_i), and an AllToAll's bisection V span / (8 or 4 g W).  Its
 * wraparound is that of the span it covers (n x s along the axis), by the
 * rule above: on a v5e only a span of the pod's full 16.  So the pair on
 * a 4x4 is a line of 2, 2 hops and bytes / W (a compact pair: 1 hop,
 * bytes / (2 W)).  Rings and switches are not placed (a switch has no
 * hops; a ring keeps its wraparound); a group crossing domains times its
 * domain level compact; where the tile does not divide the span on any
 * axis order the group is timed compact.  Its axes wrap by the rule
 * above, against the domain (the pod), not the slice: a group wraps on an
 * axis only where it spans the pod's full axis (v5e/v6e 16 of 16x16), or,
 * on a 3D torus, where it is made of whole 4x4x4 cubes.  So a TP group of
 * 4 (stride 1) on a v5e 4x4 slice is timed as 2x2 (no wraparound; none
 * needed on an axis of 2): 1 + 1 hops, bytes / (4 W).  Laid along one
 * axis of 4 instead (the book's mesh {X: 8, Y: 4} gathering over Y) it
 * has no wraparound either (only a full 16 wraps) and costs 3 hops and
 * 3 bytes / (4 W): a placement the chip order does not make.
 *
 * Measured times take precedence: when the hardware spec has a
 * `collectives` table (collectives.h) with a row for the operation and the
 * group size, and the group stays inside one domain, the collective costs
 * that row's fit (M): latency_s = max(alpha, floor - bytes/bw), bandwidth_s
 * = bytes / bw, time_s = max(floor, alpha + bytes / bw), measured = 1.
 * Other groups (sizes not measured, groups crossing domains, P2P) use the
 * model above, with two rules that keep it consistent with the table:
 *   - a group crossing domains whose domain level (d chips) is measured
 *     times that level from the table: an AllReduce is the measured
 *     ReduceScatter over d, the network AllReduce of bytes/d per chip, and
 *     the measured AllGather over d (NCCL's hierarchical / "tree across
 *     nodes" scheme; the AllReduce row over d when those two are missing);
 *     an AllGather or ReduceScatter its own row; measured = 2.
 *   - no modelled collective is faster than the same one measured over
 *     fewer chips (the largest measured group below it, same bytes):
 *     crossing the network or adding chips adds steps.  On h100-sxm the
 *     model alone charged a 16-GPU AllReduce of 1 MiB 14 us against 25.4 us
 *     measured over 8 (tester finding 5); it is now 41.8 us.
 * On a link what-if (ici_bw, ici_latency, ici_links or topology differ
 * from those the rows were measured at, spec.h rl_hw.measured) each
 * measured row's time, and its fitted terms, move by the domain level
 * above for that operation and group, Hockney's two terms apart
 * (T = alpha + n / beta): the bandwidth change reads the measured time at
 * the bytes times the model's bandwidth term on h's link over that on the
 * link as measured (a constant: n bytes at beta / s take what n s bytes
 * took at beta, the kernel's overheads and protocol switches kept); the
 * latency change adds the model's latency term (hops x per-hop latency,
 * twice for an AllReduce; a switch AllReduce: the hops of the algorithm
 * the model picks, one for the one-shot, one on a shorter hop) on h's link
 * less that as measured (alpha grows by the added per-hop latency); never
 * below the model's time on h's link.
 * Until stop 23 both were one ratio, max(latency, bandwidth) of the model
 * on h's link over that as measured, times the measured time: it fell with
 * the bytes where the model turned bandwidth-bound, so at ici_latency =
 * 1e-4 an 8 MB AllReduce over 8 H100 read faster than a 1 MB one
 * (tester13 #2), and it charged a 25x slower link 25x on a 1 MiB
 * AllReduce whose measured 26 us is mostly kernel overhead.  Exactly the
 * measured time on the link as measured; a slower link or longer hop never
 * reads faster; on any link the time is non-decreasing in bytes. */
#ifndef RL_COMM_H
#define RL_COMM_H

/* How a link what-if moves a measured collective, in the words every
 * label uses (the rule above). */
#define RL_COMM_WHAT_IF_RULE                                                  \
    "each measured collective read at its bytes x the link's bandwidth ratio " \
    "plus the change in latency terms (Hockney's terms apart, comm.h)"

#include <stddef.h>

#include "collectives.h"
#include "spec.h"

typedef struct {
    rl_collective kind;
    long long group;    /* chips taking part */
    double bytes;       /* whole array, bytes (see above) */
    double latency_s;   /* sum over levels of the latency terms */
    double bandwidth_s; /* sum over levels of the bandwidth terms */
    double time_s;      /* sum over levels of max(latency, bandwidth) */
    int latency_bound;  /* latency_s > bandwidth_s */
    int levels;         /* 1: inside one ICI/NVLink domain; 2: also the network */
    int measured;       /* 1: timed by the hardware's collectives table (M); 2: its domain
                         * level measured, the network level modelled; 0: the model */
    rl_provenance prov; /* measured = 1: the table lookup's (rl_coll_time): measured,
                         * interpolated (a point capped by the monotone envelope) or
                         * extrapolated (outside the measured sizes); one provenance
                         * that ops and the collectives table both print */
    int nvlink;         /* the domain is an NVLink switch (hw topology "switch"); else ICI */
    char impl[24];      /* measured > 0: the impl of the row that timed it (collectives.h:
                         * "nccl", "trtllm", "vllm_graph", ...); floor_gpus > 0: the impl of
                         * the row that floored it; "none" for the model */
    long long floor_gpus; /* > 0: the modelled time was raised to the same collective
                           * measured over this many GPUs (the floor above); 0 not */
    int why;              /* measured = 1: rl_coll_reason's (rl_coll_why): why prov is what it
                           * is, for timed_by (review41 F1) */
    double why_sw;        /* why TOWARD or ACROSS: the algorithm switch, bytes */
} rl_comm;

/* Split a group of g chips into torus axes (at most `dims` of them, sizes
 * ascending, product g): the most nearly square factorization, as TPU
 * slices are shaped (16 -> 4x4, 128 -> 8x16, 64 on a 3D torus -> 4x4x4).
 * Writes `dims` sizes (1 for unused axes) and returns how many are > 1. */
int rl_comm_torus_axes(long long g, int dims, long long *axes);

/* Where a group of g chips `stride` apart sits on a `dims`-axis torus
 * (comm.h, placement): members[i] of them along axis i, spacing[i] chips
 * apart (1 for every axis at stride 1: members = rl_comm_torus_axes(g)).
 * Returns 0 (members, spacing: the compact group's) when the stride's tile
 * divides the span on no axis order. */
int rl_comm_torus_place(long long g, long long stride, int dims, long long *members,
                        long long *spacing);

/* Axis i of a group's sub-torus on topology topo (ring, torus2d or
 * torus3d) in a domain of `domain` chips (0: unbounded), its `members`
 * chips along the axis, the axes spanning `span` (`dims` sizes: members x
 * their spacing, rl_comm_torus_place; rl_comm_torus_axes' sizes for a
 * compact group), by the one wraparound rule above (every collective reads
 * it): returns 1 when the span's axis has its wraparound link, else 0.
 * *hops: hops between neighbouring members to the farthest one along it,
 * floor(k/2) with wraparound, k - 1 without; *rate: the bytes an
 * AllGather / ReduceScatter moves along it a second, in units of the
 * one-way link bandwidth W: 2 with wraparound, k / (k-1) without, 0 for
 * an axis of 1 (time bytes / (rate W) on that axis alone). */
int rl_comm_torus_axis(rl_topology topo, long long domain, const long long *span, int dims,
                       int i, long long members, double *hops, double *rate);

/* Cost of one collective of `bytes` (>= 0) over `group` (>= 1) chips of
 * hardware h, the group's chips `stride` (>= 1) apart in the machine's chip
 * order (1: neighbours; a mesh axis outside a tp-chip axis has stride tp).
 * The group stays inside one ICI/NVLink domain when stride * group <=
 * domain_chips (or domain_chips is 0); otherwise the domain_chips / stride
 * members sharing a domain form the inner level and the rest go over the
 * network (all of it when stride >= domain_chips).  A group of 1 costs
 * nothing.  Errors (-1, err set): no interconnect (ici_bw, ici_links or
 * ici_latency unset) for group > 1; a group crossing domains whose inner
 * part does not divide it, or without net_bw/net_latency.  h->ideal: as
 * rl_comm_model_time. */
int rl_comm_time(const rl_hw *h, rl_collective kind, double bytes, long long group,
                 long long stride, rl_comm *out, char *err, size_t errlen);

/* rl_comm_time with the alpha-beta model alone (no measured row, no
 * floor): a collective at the datasheet link figures. */
int rl_comm_model_time(const rl_hw *h, rl_collective kind, double bytes, long long group,
                       long long stride, rl_comm *out, char *err, size_t errlen);

/* The provenance of c's time as an op list counts it: the table lookup's
 * (c->prov) when the collectives table timed it (measured 1), else
 * RL_PROV_ROOFLINE (the model, or a modelled network level). */
rl_provenance rl_comm_provenance(const rl_comm *c);

/* 1 when h's link figures (ici_latency, ici_bw, ici_links, topology)
 * differ from those its collectives were measured at (rl_hw.measured): its
 * measured collectives are moved by the link what-if rule, provenance
 * derived (ktable.h rl_provenance_moved); else 0. */
int rl_comm_link_moved(const rl_hw *h);

/* Collectives modelled on h though its collectives table measures the same
 * collective on fewer GPUs only, and raised to that measured time (the
 * floor above: measured 0, floor_gpus > 0): each distinct collective,
 * group, floor and table impl, the first RL_COMM_FLOORS of them (more: 1
 * when others were left out).  One set and one text for every note that
 * names collectives outside h's table (pareto's outside_tables, size's
 * note and report), as ops's timed_by says each collective (tester60 #3:
 * one "AllReduce, 4 at most" for an AllToAll raised to its 2-GPU time). */
#define RL_COMM_FLOORS 4

typedef struct {
    struct {
        rl_collective kind;
        long long group, floor;
        char impl[24];
    } f[RL_COMM_FLOORS];
    int n, more;
} rl_comm_floors;

/* Whether c, as timed on h (rl_comm_time), is such a collective. */
int rl_comm_floored(const rl_hw *h, const rl_comm *c);

/* Add a collective `kind` over `group` GPUs raised to its floor-GPU time of
 * table impl `impl` to s, unless s holds it. */
void rl_comm_floors_add(rl_comm_floors *s, rl_collective kind, long long group, long long floor,
                        const char *impl);

/* s's words from buf[k] on: "collectives H's collectives table does not
 * measure at their group size, timed by the alpha-beta model and raised to
 * the same collective's measured time on fewer GPUs (AllReduce over 64
 * raised to its 4-GPU trtllm time, 4 octaves beyond; ...)", hw H.  Returns
 * the new k (>= len: cut). */
size_t rl_comm_floors_text(const rl_comm_floors *s, const char *hw, char *buf, size_t len,
                           size_t k);

/* The collectives of one step that cross h's NVLink/ICI domains (rl_comm
 * levels > 1: group x stride beyond domain_chips, comm.c), by kind and
 * group, each with the names of what it carries ("MoE dispatch"), the
 * first RL_COMM_FLOORS of them (more: 1 when others were left out).  One
 * set and one text for the notes that say which collectives ride the
 * scale-out network (simulate's cross-domain note; tester64 #5: it said
 * "its tensor-parallel collectives" where only the MoE AllToAlls crossed). */
typedef struct {
    struct {
        rl_collective kind;
        long long group;
        const char *what[4]; /* static strings (shard.h rl_shard_coll.what) */
        int nwhat;
    } f[RL_COMM_FLOORS];
    int n, more;
} rl_comm_cross;

/* Add c, carrying `what` (a static string), to s when it crosses domains. */
void rl_comm_cross_add(rl_comm_cross *s, const rl_comm *c, const char *what);

/* s's words from buf[k] on: "AllToAll over 4 chips (MoE dispatch, MoE
 * combine); AllReduce over 16 chips (attn out)", or "none of its
 * collectives" when s is empty.  Returns the new k (>= len: cut). */
size_t rl_comm_cross_text(const rl_comm_cross *s, char *buf, size_t len, size_t k);

/* The one latency-bound rule: a collective is latency-bound when its
 * latency term exceeds its bandwidth term (Hockney's alpha against n/beta,
 * summed over levels: rl_comm latency_s > bandwidth_s; seed 000 Appendix
 * C).  Every flag says it by this: each collective's latency_bound (comm.c,
 * shard's and step's rows), shard's limits.activation_latency_bound and
 * its advice (shard.c rl_shard_limits_of), and the threshold below. */
int rl_comm_is_latency_bound(const rl_comm *c);

/* Appendix C's threshold, by that rule: the largest array (bytes) at which
 * `kind` over `group` adjacent chips of h, timed by the alpha-beta model
 * alone (`model` 1: rl_comm_model_time, shard's ideal rows) or as
 * rl_comm_time times it (0), is latency-bound; above it the collective is
 * bandwidth-bound at every size (scanned to 2^60 bytes).  A ring
 * AllGather or AllReduce: latency 2 W a ceil((g-1)/2) = g W a bytes for
 * even g (each hop's bytes/g under one hop's latency; the AllReduce twice
 * both terms): TPU v5e, 8 shards, 8 * 4.5e10 * 1e-6 = 360 kB.  An
 * AllReduce inside an NVLink switch domain takes the cheapest of one-shot,
 * two-shot and NVLS (comm.c switch_allreduce), so below the threshold a
 * size where the one-shot's bandwidth term wins is bandwidth-bound (8
 * H100: about 129 to 257 kB); 8 H100 with NVLS: 2 a / ((g+1)/(g Wc)) =
 * 2 * 2e-6 * 8 * 4.5e11 / 9 = 1.6 MB.  Returns 0 when the group is 1, the
 * hardware has no interconnect or no size is latency-bound. */
double rl_comm_latency_threshold(const rl_hw *h, int model, rl_collective kind, long long group);

#endif
