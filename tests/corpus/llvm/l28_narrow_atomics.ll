; corpus: cpu=sm_75 features=+ptx90
; Narrow and wide atomics through generic pointers as Numba / MLIR memref lowering produce them (no address-space
; inference): i8 flags (xchg, or), i16 counters (add, cmpxchg), i64 min/max/xor with block, device and system
; scopes and seq_cst/acq_rel orders, float min as a cmpxchg loop on the bit pattern (Numba's cuda.atomic.min on
; sm_75), and an acquire-load spin on a generic flag in a loop, with a barrier0 bracketing the per-block phase.
target datalayout = "e-p6:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@blk_flags = internal addrspace(3) global [32 x i8] undef, align 4
@blk_cnt = internal addrspace(3) global [16 x i16] undef, align 4

define ptx_kernel void @narrow_generic_atomics(ptr %g8, ptr %g16, ptr %g64, i32 %n) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %te = zext i32 %tid to i64
  %sf = addrspacecast ptr addrspace(3) @blk_flags to ptr
  %sc = addrspacecast ptr addrspace(3) @blk_cnt to ptr
  %w = lshr i32 %tid, 5
  %we = zext i32 %w to i64
  %pf = getelementptr inbounds i8, ptr %sf, i64 %we
  %pc = getelementptr inbounds i16, ptr %sc, i64 %we
  %lt32 = icmp ult i32 %tid, 32
  br i1 %lt32, label %clr, label %s0

clr:
  %pz = getelementptr inbounds i8, ptr %sf, i64 %te
  store i8 0, ptr %pz, align 1
  br label %s0

s0:
  tail call void @llvm.nvvm.barrier0()
  %bit = and i32 %tid, 7
  %b8 = trunc i32 %bit to i8
  %m8 = shl i8 1, %b8
  %o1 = atomicrmw or ptr %pf, i8 %m8 syncscope("block") monotonic, align 1
  %o2 = atomicrmw add ptr %pc, i16 1 syncscope("block") acq_rel, align 2
  %any = icmp slt i32 %tid, %n
  br i1 %any, label %loop, label %s1

loop:
  %i = phi i32 [ %tid, %s0 ], [ %i2, %loop ]
  %ie = zext i32 %i to i64
  %p64 = getelementptr inbounds i64, ptr %g64, i64 %ie
  %x = load i64, ptr %p64, align 8
  %a = atomicrmw min ptr %g64, i64 %x syncscope("device") seq_cst, align 8
  %pmax = getelementptr inbounds i64, ptr %g64, i64 1
  %b = atomicrmw umax ptr %pmax, i64 %x acq_rel, align 8
  %pxr = getelementptr inbounds i64, ptr %g64, i64 2
  %c = atomicrmw xor ptr %pxr, i64 %x syncscope("block") release, align 8
  %i2 = add nuw i32 %i, 1024
  %m = icmp slt i32 %i2, %n
  br i1 %m, label %loop, label %s1

s1:
  tail call void @llvm.nvvm.barrier0()
  %lane = and i32 %tid, 31
  %l0 = icmp eq i32 %lane, 0
  br i1 %l0, label %flush, label %exit

flush:
  %fv = load i8, ptr %pf, align 1
  %pg8 = getelementptr inbounds i8, ptr %g8, i64 %we
  %x8 = atomicrmw xchg ptr %pg8, i8 %fv syncscope("device") acq_rel, align 1
  %cv = load i16, ptr %pc, align 2
  %pg16 = getelementptr inbounds i16, ptr %g16, i64 %we
  %cx = cmpxchg ptr %pg16, i16 0, i16 %cv syncscope("device") seq_cst seq_cst, align 2
  %ok = extractvalue { i16, i1 } %cx, 1
  br i1 %ok, label %exit, label %addit

addit:
  %ad = atomicrmw add ptr %pg16, i16 %cv syncscope("device") monotonic, align 2
  br label %exit

exit:
  ret void
}

define ptx_kernel void @float_min_cas(ptr %res, ptr %xs, ptr %ready, i32 %n) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bid = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %nt = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %m0 = mul i32 %bid, %nt
  %i = add i32 %m0, %tid
  %in = icmp slt i32 %i, %n
  br i1 %in, label %ld, label %sync

ld:
  %ie = sext i32 %i to i64
  %px = getelementptr inbounds float, ptr %xs, i64 %ie
  %x = load float, ptr %px, align 4
  %xb = bitcast float %x to i32
  %cur0 = load i32, ptr %res, align 4
  br label %cas

cas:
  %cur = phi i32 [ %cur0, %ld ], [ %seen, %retry ]
  %cf = bitcast i32 %cur to float
  %le = fcmp ole float %cf, %x
  br i1 %le, label %sync, label %try

try:
  %r = cmpxchg ptr %res, i32 %cur, i32 %xb seq_cst seq_cst, align 4
  %seen = extractvalue { i32, i1 } %r, 0
  %ok = extractvalue { i32, i1 } %r, 1
  br i1 %ok, label %sync, label %retry

retry:
  br label %cas

sync:
  tail call void @llvm.nvvm.barrier0()
  %t0 = icmp eq i32 %tid, 0
  br i1 %t0, label %wait, label %exit

wait:
  %f = load atomic i32, ptr %ready acquire, align 4
  %z = icmp eq i32 %f, 0
  br i1 %z, label %wait, label %sig

sig:
  %d = atomicrmw sub ptr %ready, i32 1 release, align 4
  br label %exit

exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare void @llvm.nvvm.barrier0()
