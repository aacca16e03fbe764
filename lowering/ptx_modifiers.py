"""The modifiers ptxas 13.0.88 knows, for its "Unknown modifier '.snyc'" message.

ptxas's lexer splits an instruction into an opcode (the stem with its operation words: `bar.arrive`,
`mbarrier.try_wait`, `cp.async.bulk.tensor`, `mul.wide`) and modifiers from one global vocabulary; a
modifier outside both is reported as "Unknown modifier '.x'" and dropped, and the instruction is then
checked without it (`bar.snyc 0` also gets "Barrier modifier required for instruction 'bar'").

MODIFIERS is that vocabulary, found by asking ptxas: every candidate token (from the corpus, pylower's tables and
the ptxas binary's strings) was compiled as `bar.sync.X 0;`; a token ptxas reported as "Unknown modifier" is
not in it (python -m pylower.tools.gen_frontend_probes --vocabulary re-checks it). OPERATION_WORDS are the
operation words of instruction names; which word belongs to which stem is context ptxas's lexer has and this
table does not, so a word listed there is never reported (`bar.sync.arrive` is "Unknown modifier" for ptxas).
"""
from __future__ import annotations

MODIFIERS = frozenset("""
.128x128b .128x256b .16x128b .16x256b .16x32bx2 .16x64b .1d .1d_buffer .2d .2dms .32x128b .32x32b .3d .4d .4x256b
.5d .64x128b .L1 .L1::evict_first .L1::evict_last .L1::evict_normal .L1::evict_unchanged .L1::no_allocate .L2
.L2::128B .L2::256B .L2::64B .L2::cache_hint .L2::evict_first .L2::evict_last .L2::evict_normal .L2::evict_unchanged
.L2::no_allocate .NaN .a .a1d .a2d .a2dms .abs .acc::f16 .acc::f32 .acq_rel .acquire .acube .add .addr_mode_0
.addr_mode_1 .addr_mode_2 .alias .aligned .all .alloc .and .any .approx .array_size .ashift .async .async::generic
.b .b1 .b1024 .b128 .b16 .b2 .b32 .b4e .b4x16_p64 .b64 .b6x16_p32 .b8 .b8x16 .ballot .bf16 .bf16x2 .bfly .block16
.block32 .block_scale .box_dim .bulk_group .ca .cas .cc .cg .channel_data_type .channel_order .clamp .cluster .col
.collector::a::discard .collector::a::fill .collector::a::lastuse .collector::a::use .collector::b0::discard
.collector::b0::fill .collector::b0::lastuse .collector::b0::use .collector::b1::discard .collector::b1::fill
.collector::b1::lastuse .collector::b1::use .collector::b2::discard .collector::b2::fill .collector::b2::lastuse
.collector::b2::use .collector::b3::discard .collector::b3::fill .collector::b3::lastuse .collector::b3::use .const
.cp .cp_mask .cs .cta .cta_group::1 .cta_group::2 .cube .cv .dealloc .dec .depth .dis .down .e0m3x2 .e0m3x4 .e2m1
.e2m1x2 .e2m1x4 .e2m3 .e2m3x2 .e2m3x4 .e3m2 .e3m2x2 .e3m2x4 .e4m3 .e4m3x2 .e4m3x4 .e5m2 .e5m2x2 .e5m2x4 .ecl
.element_stride .elemtype .en .eq .equ .evict_first .evict_last .evict_normal .evict_unchanged .exch .f16 .f16x2
.f32 .f32x2 .f4e .f64 .fill_mode .filter_mode .finite .force_unnormalized_coords .ftz .g .ge .get_first_ctaid
.get_first_ctaid::x .get_first_ctaid::y .get_first_ctaid::z .geu .gl .global .global_address .global_dim
.global_stride .gpu .gt .gtu .height .hi .hs .idx .ignoreC .ignoreC_pred .im2col .im2col::w .im2col::w::128
.im2col_no_offs .inc .infinite .interleave_layout .inv .invall .is_canceled .kind::f16 .kind::f8f6f4 .kind::i8
.kind::mxf4 .kind::mxf4nvf4 .kind::mxf8f6f4 .kind::tf32 .launch_dependents .ld .le .leu .lo .local .lower::16b .ls
.lt .ltu .lu .m16n16 .m16n16k16 .m16n16k8 .m16n8 .m16n8k128 .m16n8k16 .m16n8k256 .m16n8k32 .m16n8k4 .m16n8k64
.m16n8k8 .m32n8k16 .m64n104k16 .m64n104k32 .m64n104k64 .m64n104k8 .m64n112k16 .m64n112k256 .m64n112k32 .m64n112k64
.m64n112k8 .m64n120k16 .m64n120k32 .m64n120k64 .m64n120k8 .m64n128k16 .m64n128k256 .m64n128k32 .m64n128k64
.m64n128k8 .m64n136k16 .m64n136k32 .m64n136k64 .m64n136k8 .m64n144k16 .m64n144k256 .m64n144k32 .m64n144k64
.m64n144k8 .m64n152k16 .m64n152k32 .m64n152k64 .m64n152k8 .m64n160k16 .m64n160k256 .m64n160k32 .m64n160k64
.m64n160k8 .m64n168k16 .m64n168k32 .m64n168k64 .m64n168k8 .m64n16k16 .m64n16k256 .m64n16k32 .m64n16k64 .m64n16k8
.m64n176k16 .m64n176k256 .m64n176k32 .m64n176k64 .m64n176k8 .m64n184k16 .m64n184k32 .m64n184k64 .m64n184k8
.m64n192k16 .m64n192k256 .m64n192k32 .m64n192k64 .m64n192k8 .m64n200k16 .m64n200k32 .m64n200k64 .m64n200k8
.m64n208k16 .m64n208k256 .m64n208k32 .m64n208k64 .m64n208k8 .m64n216k16 .m64n216k32 .m64n216k64 .m64n216k8
.m64n224k16 .m64n224k256 .m64n224k32 .m64n224k64 .m64n224k8 .m64n232k16 .m64n232k32 .m64n232k64 .m64n232k8
.m64n240k16 .m64n240k256 .m64n240k32 .m64n240k64 .m64n240k8 .m64n248k16 .m64n248k32 .m64n248k64 .m64n248k8
.m64n24k16 .m64n24k256 .m64n24k32 .m64n24k64 .m64n24k8 .m64n256k16 .m64n256k256 .m64n256k32 .m64n256k64 .m64n256k8
.m64n32k16 .m64n32k256 .m64n32k32 .m64n32k64 .m64n32k8 .m64n40k16 .m64n40k32 .m64n40k64 .m64n40k8 .m64n48k16
.m64n48k256 .m64n48k32 .m64n48k64 .m64n48k8 .m64n56k16 .m64n56k32 .m64n56k64 .m64n56k8 .m64n64k16 .m64n64k256
.m64n64k32 .m64n64k64 .m64n64k8 .m64n72k16 .m64n72k32 .m64n72k64 .m64n72k8 .m64n80k16 .m64n80k256 .m64n80k32
.m64n80k64 .m64n80k8 .m64n88k16 .m64n88k32 .m64n88k64 .m64n88k8 .m64n8k16 .m64n8k256 .m64n8k32 .m64n8k64 .m64n8k8
.m64n96k16 .m64n96k256 .m64n96k32 .m64n96k64 .m64n96k8 .m8n16 .m8n32k16 .m8n8 .m8n8k128 .m8n8k16 .m8n8k32 .m8n8k4
.m8n8k64 .matrix::A .matrix::D .matrix::scaleA .matrix::scaleB .matrix::sparseMetadata .max .maxabs
.mbarrier::arrive::one .mbarrier::complete_tx::bytes .mbarrier_init .memory_layout .min .mma .mmio .multicast
.multicast::cluster .multicast::cluster::all .nan .nc .ne .negA .negB .neu .noComplete .no_allocate
.no_membermask_overlap .noftz .noinc .normal .normalized_coords .notanumber .num .num_mipmap_levels .num_samples
.number .oob .or .pack::16b .param .param::entry .param::func .po .popc .pred .r .rank .rc16 .rc8 .read .regoffset
.relaxed .release .relu .rm .rmi .rn .rna .rni .row .rp .rpi .rs .rz .rzi .s16 .s16x2 .s2 .s32 .s4 .s64 .s8 .safeadd
.samplerref .sat .satfinite .sc .scale_vec::1X .scale_vec::2X .scale_vec::4X .shared .shared::cluster .shared::cta
.shift .shiftamt .shr15 .shr7 .sp .sp::ordered_metadata .st .subnormal .surfref .swizzle_atomicity .swizzle_mode
.sync .sync_restrict::shared::cluster .sync_restrict::shared::cta .sys .tensormap .tensormap::generic .tex .texref
.tf32 .thread .tile .tile::gather4 .tile::scatter4 .trans .transA .transB .trap .u16 .u16x2 .u2 .u32 .u4 .u64 .u8
.ue4m3 .ue8m0 .ue8m0x2 .ue8m0x4 .unanimous .uni .unpack::16b .up .v2 .v4 .v8 .volatile .wait .warpx2::01_23
.warpx2::02_13 .warpx4 .wb .weak .width .wrap .wt .x1 .x128 .x16 .x2 .x32 .x4 .x64 .x8 .xor .xorsign .zero
""".split())

# operation words of instruction names (PTX ISA 9.0 and the corpus): never "unknown"
OPERATION_WORDS = frozenset("""
.wide .full .arrive .arrive_drop .red .warp .proxy .bulk .tensor .reduce .prefetch .expect_tx .complete_tx
.try_wait .test_wait .init .inval .pending_count .parity .mma_async .fence .commit_group .wait_group
.wait_group_read .wait_all .relinquish_alloc_permit .commit .replace .cp_fenceproxy .to .l .ecr .fractional
.range .ld_reduce .query_cancel .try_cancel .mbarrier .signal .fence::after_thread_sync
.fence::before_thread_sync .wait::ld .wait::st .load .store .a .b .c .d .pack .unpack .shift .level .grad
.base .lod .mipmap .tensormap .async_proxy .1d .2d .3d .4d .5d .6d .bulk_group .red_async .ws .noinc
.discard .global .gen .ld .st .mma .ldmatrix .sp .cta_group .elect .release .acquire .relaxed .sync
.p .cvt .mask
""".split())


_CACHE: dict[tuple, list[str]] = {}


def unknown_modifiers(mods: tuple) -> list[str]:
    """The modifiers of one instruction ptxas reports as "Unknown modifier", in order."""
    r = _CACHE.get(mods)
    if r is None:
        r = _CACHE[mods] = [m for m in mods if m not in MODIFIERS and m not in OPERATION_WORDS]
    return r
