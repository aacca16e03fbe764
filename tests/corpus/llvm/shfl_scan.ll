; corpus: cpu=sm_75 features=+ptx90
; Shuffle-based building blocks in the shapes CUB / clang give them: a block-wide inclusive scan (shfl.sync.up
; with the .p in-range predicate, warp totals through shared memory, barrier, second-level scan by warp 0), a
; double all-reduce through two 32-bit shfl.sync.bfly halves, and segmented (sub-warp width) broadcasts and
; reductions with every .p form (idx/up/down/bfly, i32 and f32).
target datalayout = "e-p6:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@warp_sums = internal addrspace(3) global [32 x i32] undef, align 4

define ptx_kernel void @block_inclusive_scan(ptr addrspace(1) noalias readonly %in, ptr addrspace(1) noalias %out) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %b = mul i32 %ctaid, %ntid
  %gi = add i32 %b, %tid
  %gi64 = zext i32 %gi to i64
  %pin = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %gi64
  %x = load i32, ptr addrspace(1) %pin, align 4
  %lane = and i32 %tid, 31
  %warp = lshr i32 %tid, 5
  br label %wscan

wscan:
  %d = phi i32 [ 1, %entry ], [ %d2, %wscan ]
  %v = phi i32 [ %x, %entry ], [ %v1, %wscan ]
  %r = tail call { i32, i1 } @llvm.nvvm.shfl.sync.up.i32p(i32 -1, i32 %v, i32 %d, i32 0)
  %rv = extractvalue { i32, i1 } %r, 0
  %ok = extractvalue { i32, i1 } %r, 1
  %add = select i1 %ok, i32 %rv, i32 0
  %v1 = add i32 %v, %add
  %d2 = shl i32 %d, 1
  %c = icmp ult i32 %d2, 32
  br i1 %c, label %wscan, label %wdone

wdone:
  %last = icmp eq i32 %lane, 31
  br i1 %last, label %savew, label %sync1

savew:
  %w64 = zext i32 %warp to i64
  %pw = getelementptr inbounds [32 x i32], ptr addrspace(3) @warp_sums, i64 0, i64 %w64
  store i32 %v1, ptr addrspace(3) %pw, align 4
  br label %sync1

sync1:
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %w0 = icmp eq i32 %warp, 0
  br i1 %w0, label %second, label %sync2

second:
  %nw = lshr i32 %ntid, 5
  %l64 = zext i32 %lane to i64
  %inr = icmp ult i32 %lane, %nw
  %pl = getelementptr inbounds [32 x i32], ptr addrspace(3) @warp_sums, i64 0, i64 %l64
  br i1 %inr, label %ldw, label %scan2

ldw:
  %ws = load i32, ptr addrspace(3) %pl, align 4
  br label %scan2

scan2:
  %wv = phi i32 [ %ws, %ldw ], [ 0, %second ]
  br label %s2loop

s2loop:
  %e = phi i32 [ 1, %scan2 ], [ %e2, %s2loop ]
  %u = phi i32 [ %wv, %scan2 ], [ %u1, %s2loop ]
  %q = tail call i32 @llvm.nvvm.shfl.sync.up.i32(i32 -1, i32 %u, i32 %e, i32 0)
  %ge = icmp uge i32 %lane, %e
  %qa = select i1 %ge, i32 %q, i32 0
  %u1 = add i32 %u, %qa
  %e2 = shl i32 %e, 1
  %c2 = icmp ult i32 %e2, 32
  br i1 %c2, label %s2loop, label %s2done

s2done:
  store i32 %u1, ptr addrspace(3) %pl, align 4
  br label %sync2

sync2:
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %hasprev = icmp ugt i32 %warp, 0
  br i1 %hasprev, label %addprev, label %store

addprev:
  %pw1 = add i32 %warp, -1
  %pw164 = zext i32 %pw1 to i64
  %pp = getelementptr inbounds [32 x i32], ptr addrspace(3) @warp_sums, i64 0, i64 %pw164
  %prev = load i32, ptr addrspace(3) %pp, align 4
  %vv = add i32 %v1, %prev
  br label %store

store:
  %res = phi i32 [ %vv, %addprev ], [ %v1, %sync2 ]
  %po = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %gi64
  store i32 %res, ptr addrspace(1) %po, align 4
  ret void
}

define ptx_kernel void @warp_allreduce_f64(ptr addrspace(1) noalias readonly %in, ptr addrspace(1) noalias %out, i32 %n) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %nct = tail call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %b = mul i32 %ctaid, %ntid
  %gi = add i32 %b, %tid
  %stride = mul i32 %nct, %ntid
  %has = icmp slt i32 %gi, %n
  br i1 %has, label %gs, label %reduce

gs:
  %i = phi i32 [ %gi, %entry ], [ %i1, %gs ]
  %acc = phi double [ 0.0, %entry ], [ %acc1, %gs ]
  %i64 = sext i32 %i to i64
  %p = getelementptr inbounds double, ptr addrspace(1) %in, i64 %i64
  %x = load double, ptr addrspace(1) %p, align 8
  %acc1 = fadd double %acc, %x
  %i1 = add nsw i32 %i, %stride
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %gs, label %reduce

reduce:
  %s0 = phi double [ 0.0, %entry ], [ %acc1, %gs ]
  br label %bfly

bfly:
  %m = phi i32 [ 16, %reduce ], [ %m1, %bfly ]
  %s = phi double [ %s0, %reduce ], [ %sn, %bfly ]
  %bits = bitcast double %s to i64
  %lo = trunc i64 %bits to i32
  %hi64 = lshr i64 %bits, 32
  %hi = trunc i64 %hi64 to i32
  %lo2 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %lo, i32 %m, i32 31)
  %hi2 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %hi, i32 %m, i32 31)
  %lo2z = zext i32 %lo2 to i64
  %hi2z = zext i32 %hi2 to i64
  %hi2s = shl i64 %hi2z, 32
  %ob = or i64 %hi2s, %lo2z
  %o = bitcast i64 %ob to double
  %sn = fadd double %s, %o
  %m1 = lshr i32 %m, 1
  %z = icmp eq i32 %m1, 0
  br i1 %z, label %out1, label %bfly

out1:
  %lane = and i32 %tid, 31
  %l0 = icmp eq i32 %lane, 0
  br i1 %l0, label %atom, label %ret

atom:
  %old = atomicrmw fadd ptr addrspace(1) %out, double %sn monotonic, align 8
  br label %ret

ret:
  ret void
}

; segments of 8 lanes: broadcast the segment head, segmented sum with down.p, bfly.p max, up.f32p / idx.i32p
define ptx_kernel void @segmented_shfl(ptr addrspace(1) noalias readonly %in, ptr addrspace(1) noalias %out) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %tid64 = zext i32 %tid to i64
  %pin = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %tid64
  %x = load i32, ptr addrspace(1) %pin, align 4
  %xf = sitofp i32 %x to float
  ; width 8: c = ((32-8)<<8) | 0x1f = 6175; up: (32-8)<<8 = 6144
  %head = tail call { i32, i1 } @llvm.nvvm.shfl.sync.idx.i32p(i32 -1, i32 %x, i32 0, i32 6175)
  %hv = extractvalue { i32, i1 } %head, 0
  %d1 = tail call { i32, i1 } @llvm.nvvm.shfl.sync.down.i32p(i32 -1, i32 %x, i32 4, i32 6175)
  %d1v = extractvalue { i32, i1 } %d1, 0
  %d1p = extractvalue { i32, i1 } %d1, 1
  %d1a = select i1 %d1p, i32 %d1v, i32 0
  %s1 = add i32 %x, %d1a
  %d2 = tail call { i32, i1 } @llvm.nvvm.shfl.sync.down.i32p(i32 -1, i32 %s1, i32 2, i32 6175)
  %d2v = extractvalue { i32, i1 } %d2, 0
  %d2p = extractvalue { i32, i1 } %d2, 1
  %d2a = select i1 %d2p, i32 %d2v, i32 0
  %s2 = add i32 %s1, %d2a
  %d3 = tail call i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32 %s2, i32 1, i32 6175)
  %s3 = add i32 %s2, %d3
  %mx1 = tail call { float, i1 } @llvm.nvvm.shfl.sync.bfly.f32p(i32 -1, float %xf, i32 4, i32 6175)
  %mx1v = extractvalue { float, i1 } %mx1, 0
  %m1 = tail call float @llvm.maxnum.f32(float %xf, float %mx1v)
  %mx2 = tail call { i32, i1 } @llvm.nvvm.shfl.sync.bfly.i32p(i32 -1, i32 %x, i32 2, i32 6175)
  %mx2v = extractvalue { i32, i1 } %mx2, 0
  %m2 = tail call i32 @llvm.smax.i32(i32 %x, i32 %mx2v)
  %up = tail call { float, i1 } @llvm.nvvm.shfl.sync.up.f32p(i32 -1, float %m1, i32 1, i32 6144)
  %upv = extractvalue { float, i1 } %up, 0
  %upp = extractvalue { float, i1 } %up, 1
  %upa = select i1 %upp, float %upv, float 0.0
  %dn = tail call { float, i1 } @llvm.nvvm.shfl.sync.down.f32p(i32 -1, float %m1, i32 1, i32 6175)
  %dnv = extractvalue { float, i1 } %dn, 0
  %id = tail call float @llvm.nvvm.shfl.sync.idx.f32(i32 -1, float %xf, i32 7, i32 6175)
  %bf = tail call float @llvm.nvvm.shfl.sync.bfly.f32(i32 -1, float %xf, i32 1, i32 6175)
  %uf = tail call float @llvm.nvvm.shfl.sync.up.f32(i32 -1, float %xf, i32 2, i32 6144)
  %f1 = fadd float %upa, %dnv
  %f2 = fadd float %f1, %id
  %f3 = fadd float %f2, %bf
  %f4 = fadd float %f3, %uf
  %fi = fptosi float %f4 to i32
  %t1 = add i32 %hv, %s3
  %t2 = add i32 %t1, %m2
  %t3 = add i32 %t2, %fi
  %po = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %tid64
  store i32 %t3, ptr addrspace(1) %po, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)
declare i32 @llvm.nvvm.shfl.sync.up.i32(i32, i32, i32, i32)
declare { i32, i1 } @llvm.nvvm.shfl.sync.up.i32p(i32, i32, i32, i32)
declare i32 @llvm.nvvm.shfl.sync.bfly.i32(i32, i32, i32, i32)
declare { i32, i1 } @llvm.nvvm.shfl.sync.idx.i32p(i32, i32, i32, i32)
declare i32 @llvm.nvvm.shfl.sync.down.i32(i32, i32, i32, i32)
declare { i32, i1 } @llvm.nvvm.shfl.sync.down.i32p(i32, i32, i32, i32)
declare { i32, i1 } @llvm.nvvm.shfl.sync.bfly.i32p(i32, i32, i32, i32)
declare { float, i1 } @llvm.nvvm.shfl.sync.bfly.f32p(i32, float, i32, i32)
declare { float, i1 } @llvm.nvvm.shfl.sync.up.f32p(i32, float, i32, i32)
declare { float, i1 } @llvm.nvvm.shfl.sync.down.f32p(i32, float, i32, i32)
declare float @llvm.nvvm.shfl.sync.idx.f32(i32, float, i32, i32)
declare float @llvm.nvvm.shfl.sync.bfly.f32(i32, float, i32, i32)
declare float @llvm.nvvm.shfl.sync.up.f32(i32, float, i32, i32)
declare float @llvm.maxnum.f32(float, float)
declare i32 @llvm.smax.i32(i32, i32)
