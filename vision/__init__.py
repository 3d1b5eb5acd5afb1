"""The camera service: frames in, marker poses in table millimetres out. It knows no map."""
