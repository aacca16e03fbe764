; corpus: cpu=sm_75 features=+ptx90
; Pre-LLVM-20 barrier intrinsic names as older clang / Julia / Numba-style front ends still emit them, auto-upgraded
; on parse: llvm.nvvm.barrier0 in a 1-D stencil with a halo and an early bounds return, barrier0.popc/and/or
; (__syncthreads_count/and/or) driving a stream-compaction decision, and llvm.nvvm.barrier / barrier.n /
; barrier.sync / barrier.sync.cnt for named, counted barriers between two warp groups.
target datalayout = "e-p6:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [288 x float] undef, align 4
@flags = internal addrspace(3) global [256 x i32] undef, align 4
@stage = internal addrspace(3) global [2 x [128 x float]] undef, align 4

; out[i] = sum_{k=-16..16} in[i+k], block of 256, halo of 16 on each side
define ptx_kernel void @stencil_1d_halo(ptr addrspace(1) noalias readonly %in, ptr addrspace(1) noalias %out, i32 %n) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %blk = shl i32 %ctaid, 8
  %gi = add i32 %blk, %tid
  %gi64 = sext i32 %gi to i64
  %lidx = add i32 %tid, 16
  %lidx64 = zext i32 %lidx to i64
  %pin = getelementptr inbounds float, ptr addrspace(1) %in, i64 %gi64
  %inb = icmp slt i32 %gi, %n
  br i1 %inb, label %ld, label %zero

ld:
  %v = load float, ptr addrspace(1) %pin, align 4
  br label %st

zero:
  br label %st

st:
  %val = phi float [ %v, %ld ], [ 0.0, %zero ]
  %pl = getelementptr inbounds [288 x float], ptr addrspace(3) @tile, i64 0, i64 %lidx64
  store float %val, ptr addrspace(3) %pl, align 4
  %halo = icmp ult i32 %tid, 16
  br i1 %halo, label %lhalo, label %sync

lhalo:
  %gl = add i32 %gi, -16
  %gl64 = sext i32 %gl to i64
  %okl = icmp sgt i32 %gl, -1
  %pgl = getelementptr inbounds float, ptr addrspace(1) %in, i64 %gl64
  br i1 %okl, label %ldl, label %stl

ldl:
  %vl = load float, ptr addrspace(1) %pgl, align 4
  br label %stl

stl:
  %hl = phi float [ %vl, %ldl ], [ 0.0, %lhalo ]
  %tid64 = zext i32 %tid to i64
  %phl = getelementptr inbounds [288 x float], ptr addrspace(3) @tile, i64 0, i64 %tid64
  store float %hl, ptr addrspace(3) %phl, align 4
  %gr = add i32 %gi, 256
  %gr64 = sext i32 %gr to i64
  %okr = icmp slt i32 %gr, %n
  %pgr = getelementptr inbounds float, ptr addrspace(1) %in, i64 %gr64
  br i1 %okr, label %ldr, label %str

ldr:
  %vr = load float, ptr addrspace(1) %pgr, align 4
  br label %str

str:
  %hr = phi float [ %vr, %ldr ], [ 0.0, %stl ]
  %ri = add i32 %tid, 272
  %ri64 = zext i32 %ri to i64
  %phr = getelementptr inbounds [288 x float], ptr addrspace(3) @tile, i64 0, i64 %ri64
  store float %hr, ptr addrspace(3) %phr, align 4
  br label %sync

sync:
  tail call void @llvm.nvvm.barrier0()
  br i1 %inb, label %loop, label %ret

loop:
  %k = phi i32 [ 0, %sync ], [ %k1, %loop ]
  %acc = phi float [ 0.0, %sync ], [ %acc1, %loop ]
  %j = add i32 %tid, %k
  %j64 = zext i32 %j to i64
  %pj = getelementptr inbounds [288 x float], ptr addrspace(3) @tile, i64 0, i64 %j64
  %x = load float, ptr addrspace(3) %pj, align 4
  %acc1 = fadd contract float %acc, %x
  %k1 = add nuw nsw i32 %k, 1
  %done = icmp eq i32 %k1, 33
  br i1 %done, label %write, label %loop

write:
  %po = getelementptr inbounds float, ptr addrspace(1) %out, i64 %gi64
  store float %acc1, ptr addrspace(1) %po, align 4
  br label %ret

ret:
  ret void
}

; block-level stream compaction decision: count, all, any of a predicate with the legacy barrier0.* reductions
define ptx_kernel void @syncthreads_count_compact(ptr addrspace(1) noalias readonly %keys, ptr addrspace(1) noalias %out,
                                                  ptr addrspace(1) noalias %counts, i32 %thresh) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %b = mul i32 %ctaid, %ntid
  %gi = add i32 %b, %tid
  %gi64 = zext i32 %gi to i64
  %pk = getelementptr inbounds i32, ptr addrspace(1) %keys, i64 %gi64
  %key = load i32, ptr addrspace(1) %pk, align 4
  %keep = icmp sgt i32 %key, %thresh
  %keepi = zext i1 %keep to i32
  %tid64 = zext i32 %tid to i64
  %pf = getelementptr inbounds [256 x i32], ptr addrspace(3) @flags, i64 0, i64 %tid64
  store i32 %keepi, ptr addrspace(3) %pf, align 4
  %cnt = tail call i32 @llvm.nvvm.barrier0.popc(i32 %keepi)
  %none = icmp eq i32 %cnt, 0
  br i1 %none, label %early, label %check_all

early:
  %t0 = icmp eq i32 %tid, 0
  br i1 %t0, label %wr0, label %exit

wr0:
  %pc0 = getelementptr inbounds i32, ptr addrspace(1) %counts, i64 %gi64
  store i32 0, ptr addrspace(1) %pc0, align 4
  br label %exit

check_all:
  %all = tail call i32 @llvm.nvvm.barrier0.and(i32 %keepi)
  %alln = icmp ne i32 %all, 0
  br i1 %alln, label %copyall, label %scan

copyall:
  %po = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %gi64
  store i32 %key, ptr addrspace(1) %po, align 4
  br label %tail

scan:
  ; serial prefix of the flags below me (naive, as a front end at -O1 might leave it)
  %hasprev = icmp ne i32 %tid, 0
  br i1 %hasprev, label %sloop, label %place

sloop:
  %i = phi i32 [ 0, %scan ], [ %i1, %sloop ]
  %s = phi i32 [ 0, %scan ], [ %s1, %sloop ]
  %i64 = zext i32 %i to i64
  %pi = getelementptr inbounds [256 x i32], ptr addrspace(3) @flags, i64 0, i64 %i64
  %f = load i32, ptr addrspace(3) %pi, align 4
  %s1 = add i32 %s, %f
  %i1 = add nuw i32 %i, 1
  %more = icmp ult i32 %i1, %tid
  br i1 %more, label %sloop, label %place

place:
  %pos = phi i32 [ 0, %scan ], [ %s1, %sloop ]
  br i1 %keep, label %wr, label %tail

wr:
  %ob = add i32 %b, %pos
  %ob64 = zext i32 %ob to i64
  %pw = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %ob64
  store i32 %key, ptr addrspace(1) %pw, align 4
  br label %tail

tail:
  %neg = xor i32 %keepi, 1
  %anydrop = tail call i32 @llvm.nvvm.barrier0.or(i32 %neg)
  %t0b = icmp eq i32 %tid, 0
  br i1 %t0b, label %wrc, label %exit

wrc:
  %ctaid64 = zext i32 %ctaid to i64
  %pc = getelementptr inbounds i32, ptr addrspace(1) %counts, i64 %ctaid64
  %enc = shl i32 %anydrop, 31
  %cv = or i32 %cnt, %enc
  store i32 %cv, ptr addrspace(1) %pc, align 4
  br label %exit

exit:
  ret void
}

; warps 0-3 produce into a double buffer, warps 4-7 consume; named barriers 1/2 with 256 threads
define ptx_kernel void @named_barrier_pingpong(ptr addrspace(1) noalias readonly %in, ptr addrspace(1) noalias %out, i32 %iters) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %lane128 = and i32 %tid, 127
  %l64 = zext i32 %lane128 to i64
  %isprod = icmp ult i32 %tid, 128
  tail call void @llvm.nvvm.barrier.n(i32 0)
  %have = icmp sgt i32 %iters, 0
  br i1 %have, label %loop, label %done

loop:
  %it = phi i32 [ 0, %entry ], [ %it1, %latch ]
  %acc = phi float [ 0.0, %entry ], [ %acc1, %latch ]
  %buf = and i32 %it, 1
  %buf64 = zext i32 %buf to i64
  %slot = getelementptr inbounds [2 x [128 x float]], ptr addrspace(3) @stage, i64 0, i64 %buf64, i64 %l64
  %barid = add i32 %buf, 1
  br i1 %isprod, label %produce, label %consume

produce:
  %off = mul i32 %it, 128
  %gi = add i32 %off, %lane128
  %gi64 = zext i32 %gi to i64
  %pin = getelementptr inbounds float, ptr addrspace(1) %in, i64 %gi64
  %x = load float, ptr addrspace(1) %pin, align 4
  store float %x, ptr addrspace(3) %slot, align 4
  tail call void @llvm.nvvm.barrier(i32 %barid, i32 256)
  br label %latch

consume:
  tail call void @llvm.nvvm.barrier.sync.cnt(i32 %barid, i32 256)
  %y = load float, ptr addrspace(3) %slot, align 4
  %sq = fmul float %y, %y
  %sum = fadd float %acc, %sq
  br label %latch

latch:
  %acc1 = phi float [ %acc, %produce ], [ %sum, %consume ]
  %it1 = add nuw nsw i32 %it, 1
  %c = icmp slt i32 %it1, %iters
  br i1 %c, label %loop, label %done

done:
  %res = phi float [ 0.0, %entry ], [ %acc1, %latch ]
  tail call void @llvm.nvvm.barrier.sync(i32 0)
  br i1 %isprod, label %ret, label %wout

wout:
  %po = getelementptr inbounds float, ptr addrspace(1) %out, i64 %l64
  store float %res, ptr addrspace(1) %po, align 4
  br label %ret

ret:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare void @llvm.nvvm.barrier0()
declare i32 @llvm.nvvm.barrier0.popc(i32)
declare i32 @llvm.nvvm.barrier0.and(i32)
declare i32 @llvm.nvvm.barrier0.or(i32)
declare void @llvm.nvvm.barrier.n(i32)
declare void @llvm.nvvm.barrier(i32, i32)
declare void @llvm.nvvm.barrier.sync(i32)
declare void @llvm.nvvm.barrier.sync.cnt(i32, i32)
