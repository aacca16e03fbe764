; corpus: cpu=sm_75 features=+ptx90
; atomicrmw forms NVPTX has no instruction for, expanded by AtomicExpand into cmpxchg loops: i8/i16 add and xchg
; (masked 32-bit CAS), nand, fsub, fmin/fmax on float and double, plus a source-level CAS spin loop.
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @atomic_expand_cas(ptr addrspace(1) %b, ptr addrspace(1) %h, ptr addrspace(1) %w,
                                          ptr addrspace(1) %f, ptr addrspace(1) %d, ptr addrspace(1) %out, i32 %v) {
entry:
  %v8 = trunc i32 %v to i8
  %v16 = trunc i32 %v to i16
  %vf = sitofp i32 %v to float
  %vd = sitofp i32 %v to double
  %r0 = atomicrmw add ptr addrspace(1) %b, i8 %v8 monotonic, align 1
  %r1 = atomicrmw xchg ptr addrspace(1) %h, i16 %v16 syncscope("device") monotonic, align 2
  %r2 = atomicrmw nand ptr addrspace(1) %w, i32 %v monotonic, align 4
  %r3 = atomicrmw fsub ptr addrspace(1) %f, float %vf monotonic, align 4
  %f1 = getelementptr inbounds float, ptr addrspace(1) %f, i64 1
  %r4 = atomicrmw fmax ptr addrspace(1) %f1, float %vf syncscope("block") monotonic, align 4
  %r5 = atomicrmw fmin ptr addrspace(1) %d, double %vd monotonic, align 8
  %e0 = zext i8 %r0 to i32
  %e1 = zext i16 %r1 to i32
  %e3 = fptosi float %r3 to i32
  %e4 = fptosi float %r4 to i32
  %e5 = fptosi double %r5 to i32
  %s0 = add i32 %e0, %e1
  %s1 = add i32 %s0, %r2
  %s2 = add i32 %s1, %e3
  %s3 = add i32 %s2, %e4
  %s4 = add i32 %s3, %e5
  store i32 %s4, ptr addrspace(1) %out, align 4
  ; spin lock: while (cmpxchg(lock, 0, 1) fails) {}; critical section; release store
  %lock = getelementptr inbounds i32, ptr addrspace(1) %w, i64 1
  br label %spin

spin:
  %cx = cmpxchg ptr addrspace(1) %lock, i32 0, i32 1 syncscope("device") acquire monotonic, align 4
  %ok = extractvalue { i32, i1 } %cx, 1
  br i1 %ok, label %crit, label %spin

crit:
  %cnt = getelementptr inbounds i32, ptr addrspace(1) %w, i64 2
  %c = load i32, ptr addrspace(1) %cnt, align 4
  %c1 = add i32 %c, 1
  store i32 %c1, ptr addrspace(1) %cnt, align 4
  store atomic i32 0, ptr addrspace(1) %lock syncscope("device") release, align 4
  ret void
}
