#!/usr/bin/env python3
"""Natural Earth's 1:110m countries as a LandmarkNear catalog (GeoJSON), for the places tests.

The data is the `naturalearth_lowres` shapefile that geopandas 0.14 ships in its wheel (Natural
Earth, public domain: https://www.naturalearthdata.com/about/terms-of-use/), read with pyshp.
Natural Earth writes what the tests want to see on real data: Fiji and Russia split at ±180°,
Antarctica as a ring that runs along ±180° down to the pole, South Africa with Lesotho as a hole.

    naturalearth.py OUT.geojson

Each country is a feature with `properties.id` (1-based, file order), `name` and `iso_a3`.
"""
import importlib.util
import json
import pathlib
import sys

import shapefile


def main() -> None:
    out = pathlib.Path(sys.argv[1])
    # Where geopandas is installed, without importing it (it is installed without its
    # dependencies: only its data is wanted).
    package = importlib.util.find_spec("geopandas")
    if package is None or not package.submodule_search_locations:
        sys.exit("naturalearth.py: geopandas 0.14 (its data) is not installed: run Scripts/setup.sh")
    directory = pathlib.Path(package.submodule_search_locations[0]) / "datasets" / "naturalearth_lowres"
    reader = shapefile.Reader(str(directory / "naturalearth_lowres.shp"))
    features = []
    for number, record in enumerate(reader.iterShapeRecords(), start=1):
        fields = record.record.as_dict()
        features.append(
            {
                "type": "Feature",
                "properties": {"id": number, "name": fields["name"], "iso_a3": fields["iso_a3"]},
                "geometry": record.shape.__geo_interface__,
            }
        )
    out.write_text(json.dumps({"type": "FeatureCollection", "features": features}) + "\n")


if __name__ == "__main__":
    main()
