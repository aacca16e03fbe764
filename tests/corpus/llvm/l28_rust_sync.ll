; corpus: cpu=sm_75 features=+ptx90
; Rust nvptx64-style IR (core::sync::atomic over raw device pointers, no syncscope = system scope): an AtomicBool
; spin lock on an i8 (swap Acquire / store Release), an AtomicU16 fetch_add and AtomicU8 fetch_or (which LLVM widens
; to a 32-bit cmpxchg loop), AtomicU64 compare_exchange_weak in a loop with AcqRel/Acquire, fetch_max/fetch_min on
; i64, an Ordering::SeqCst fence, and a grid barrier built from a generation counter (fetch_add AcqRel + spin on an
; Acquire load, with nanosleep) bracketed by _syncthreads.
target datalayout = "e-p6:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @_ZN9rust_sync9spin_lock17h1a2b3c4d5e6f7a8bE(ptr addrspace(1) noalias %lock, ptr addrspace(1) %data, i64 %v) unnamed_addr {
start:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %lane = and i32 %tid, 31
  %leader = icmp eq i32 %lane, 0
  br i1 %leader, label %bb1, label %bb5

bb1:
  %old = atomicrmw xchg ptr addrspace(1) %lock, i8 1 acquire, align 1
  %held = icmp eq i8 %old, 0
  br i1 %held, label %bb3, label %bb2

bb2:
  %peek = load atomic i8, ptr addrspace(1) %lock monotonic, align 1
  %busy = icmp ne i8 %peek, 0
  br i1 %busy, label %bb2, label %bb1

bb3:
  %p = getelementptr inbounds i8, ptr addrspace(1) %data, i64 8
  %x = load i64, ptr addrspace(1) %p, align 8
  %y = add i64 %x, %v
  store i64 %y, ptr addrspace(1) %p, align 8
  %pc = getelementptr inbounds i8, ptr addrspace(1) %data, i64 2
  %c = atomicrmw add ptr addrspace(1) %pc, i16 1 monotonic, align 2
  %pf = getelementptr inbounds i8, ptr addrspace(1) %data, i64 1
  %bit = trunc i32 %tid to i8
  %f = atomicrmw or ptr addrspace(1) %pf, i8 %bit release, align 1
  store atomic i8 0, ptr addrspace(1) %lock release, align 1
  br label %bb5

bb5:
  tail call void @llvm.nvvm.barrier0()
  ret void
}

define ptx_kernel void @_ZN9rust_sync11cas_minmax17hffeeddccbbaa9988E(ptr addrspace(1) %stats, ptr addrspace(1) %xs, i32 %n) unnamed_addr {
start:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %m = mul i32 %ctaid, %ntid
  %i = add i32 %m, %tid
  %inb = icmp ult i32 %i, %n
  br i1 %inb, label %bb2, label %panic

panic:
  tail call void @llvm.trap()
  unreachable

bb2:
  %ie = zext i32 %i to i64
  %px = getelementptr inbounds i64, ptr addrspace(1) %xs, i64 %ie
  %x = load i64, ptr addrspace(1) %px, align 8
  %mx = atomicrmw max ptr addrspace(1) %stats, i64 %x acq_rel, align 8
  %pmin = getelementptr inbounds i64, ptr addrspace(1) %stats, i64 1
  %mn = atomicrmw umin ptr addrspace(1) %pmin, i64 %x monotonic, align 8
  %psum = getelementptr inbounds i64, ptr addrspace(1) %stats, i64 2
  %cur0 = load atomic i64, ptr addrspace(1) %psum monotonic, align 8
  br label %bb4

bb4:
  %cur = phi i64 [ %cur0, %bb2 ], [ %seen, %bb4 ]
  %sq = mul i64 %x, %x
  %new = add i64 %cur, %sq
  %r = cmpxchg weak ptr addrspace(1) %psum, i64 %cur, i64 %new acq_rel acquire, align 8
  %seen = extractvalue { i64, i1 } %r, 0
  %ok = extractvalue { i64, i1 } %r, 1
  br i1 %ok, label %bb6, label %bb4

bb6:
  fence seq_cst
  %pcnt = getelementptr inbounds i64, ptr addrspace(1) %stats, i64 3
  %k = atomicrmw add ptr addrspace(1) %pcnt, i64 1 seq_cst, align 8
  ret void
}

define ptx_kernel void @_ZN9rust_sync12grid_barrier17h0011223344556677E(ptr addrspace(1) %arrived, ptr addrspace(1) %gen, ptr addrspace(1) %buf, i32 %rounds) unnamed_addr {
start:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %nct = tail call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %t0 = icmp eq i32 %tid, 0
  %any = icmp sgt i32 %rounds, 0
  br i1 %any, label %round, label %end

round:
  %r = phi i32 [ 0, %start ], [ %r1, %next ]
  %ce = zext i32 %ctaid to i64
  %pb = getelementptr inbounds i32, ptr addrspace(1) %buf, i64 %ce
  %old = load i32, ptr addrspace(1) %pb, align 4
  %upd = add i32 %old, %r
  store i32 %upd, ptr addrspace(1) %pb, align 4
  tail call void @llvm.nvvm.barrier0()
  br i1 %t0, label %arrive, label %next

arrive:
  %g = load atomic i32, ptr addrspace(1) %gen acquire, align 4
  %a = atomicrmw add ptr addrspace(1) %arrived, i32 1 acq_rel, align 4
  %last1 = add i32 %nct, -1
  %last = icmp eq i32 %a, %last1
  br i1 %last, label %release, label %spin

release:
  store atomic i32 0, ptr addrspace(1) %arrived monotonic, align 4
  %g1 = add i32 %g, 1
  store atomic i32 %g1, ptr addrspace(1) %gen release, align 4
  br label %next

spin:
  tail call void @llvm.nvvm.nanosleep(i32 32)
  %g2 = load atomic i32, ptr addrspace(1) %gen acquire, align 4
  %same = icmp eq i32 %g2, %g
  br i1 %same, label %spin, label %next

next:
  tail call void @llvm.nvvm.barrier0()
  %r1 = add nuw nsw i32 %r, 1
  %more = icmp slt i32 %r1, %rounds
  br i1 %more, label %round, label %end

end:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
declare void @llvm.nvvm.barrier0()
declare void @llvm.nvvm.nanosleep(i32)
declare void @llvm.trap()
