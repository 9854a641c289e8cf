"""vtk_check.py - granucal chute's VTK output read by VTK itself (the library ParaView reads
legacy .vtk files with), as a user opening it in ParaView would: every snapshot of the .pvd
collection parses, has the points, the arrays radius, particle, cluster_id, sphere_in_cluster,
orientation (unit quaternions) and velocity, finite values, the collection's times increasing
and equal to each file's TIME field, and the spheres of a cluster at the cluster's rigid
offsets (the distance between two spheres of one cluster is the same in every snapshot).

usage: /usr/bin/python3 vtk_check.py OUTDIR N_PARTICLES SPHERES_PER_PARTICLE LENGTH
(LENGTH: the period along x [m], for the minimum image)
Prints one line per check; exit 1 on a failure."""
import math
import os
import sys
import xml.etree.ElementTree as ET

import vtk

out, n_particles, nsph, length = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
fails = 0


def check(ok, what):
    global fails
    print(("PASS" if ok else "FAIL") + ": vtk " + what)
    if not ok:
        fails += 1


pvd = [f for f in os.listdir(out) if f.endswith(".pvd")]
check(len(pvd) == 1, "one .pvd collection (%s)" % pvd)
root = ET.parse(os.path.join(out, pvd[0])).getroot()
check(root.tag == "VTKFile" and root.get("type") == "Collection", "the .pvd is a VTKFile Collection")
sets = root.findall("./Collection/DataSet")
times = [float(d.get("timestep")) for d in sets]
check(len(sets) >= 2, "%d snapshots in the collection" % len(sets))
check(all(b > a for a, b in zip(times, times[1:])), "times increase")
pair0 = None
for d, t in zip(sets, times):
    path = os.path.join(out, d.get("file"))
    r = vtk.vtkPolyDataReader()
    r.SetFileName(path)
    r.ReadAllScalarsOn()
    r.ReadAllVectorsOn()
    r.ReadAllFieldsOn()
    r.Update()
    pd = r.GetOutput()
    n = pd.GetNumberOfPoints()
    ok = n == n_particles * nsph
    tf = pd.GetFieldData().GetArray("TIME")
    ok = ok and tf is not None and abs(tf.GetValue(0) - t) <= 1e-9 * max(1.0, abs(t))
    p = pd.GetPointData()
    arrays = {p.GetArrayName(i): p.GetArray(i) for i in range(p.GetNumberOfArrays())}
    need = ["radius", "particle", "cluster_id", "sphere_in_cluster", "orientation", "velocity"]
    ok = ok and all(k in arrays for k in need)
    if not ok:
        check(False, "%s: %d points (want %d), TIME %s, arrays %s" % (d.get("file"), n, n_particles * nsph,
                                                                    tf and tf.GetValue(0), sorted(arrays)))
        continue
    x = [pd.GetPoint(i) for i in range(n)]
    q = [arrays["orientation"].GetTuple(i) for i in range(n)]
    v = [arrays["velocity"].GetTuple(i) for i in range(n)]
    cid = [arrays["cluster_id"].GetTuple1(i) for i in range(n)]
    finite = all(math.isfinite(a) for arr in (x, q, v) for row in arr for a in row)
    qn = max(abs(math.sqrt(sum(c * c for c in row)) - 1.0) for row in q)
    ids_ok = all(int(cid[i]) == i // nsph for i in range(n))
    # rigid clusters: the distance between sphere 0 and sphere 1 of particle 0
    dx = [float(x[1][k] - x[0][k]) for k in range(3)]
    dx[0] -= length * round(dx[0] / length)  # the spheres may be wrapped apart
    dist = math.sqrt(sum(c * c for c in dx)) if nsph > 1 else 0.0
    if pair0 is None:
        pair0 = dist
    check(finite and qn < 1e-6 and ids_ok and abs(dist - pair0) < 1e-7,
          "%s: t = %.4g s, %d points, finite, |q| - 1 <= %.1e, cluster ids, rigid offsets" % (d.get("file"), t, n, qn))
sys.exit(1 if fails else 0)
