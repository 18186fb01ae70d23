#ifndef PRESSDB_CLIBM_SHIM_H
#define PRESSDB_CLIBM_SHIM_H
// glibc's libm functions that Swift's Glibc module leaves out, being GNU extensions (declared by
// <math.h> only under _GNU_SOURCE, which that module is built without).

// sin(x) and cos(x) in one call (glibc sysdeps/ieee754/dbl-64/s_sincos.c): the same reduction
// and polynomials as sin and cos (s_sin.c's do_sin and do_cos), so the same bits, for about
// three quarters of the instructions of the two calls.
void sincos(double x, double *sin, double *cos);

#endif
