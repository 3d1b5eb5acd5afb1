"""How many columns a row of buttons takes: all side by side while the widest text fits, else even rows."""

from __future__ import annotations

from companion_app.ui.fitting_row import columns_for


def test_buttons_stay_in_one_row_while_the_widest_text_fits() -> None:
    assert columns_for(6, room=788, spacing=4, widest=120) == 6


def test_six_buttons_too_wide_for_one_row_make_two_rows_of_three() -> None:
    # room for five of them: two rows either way, so three and three rather than five and one
    assert columns_for(6, room=788, spacing=4, widest=150) == 3


def test_five_buttons_with_room_for_two_make_three_rows() -> None:
    assert columns_for(5, room=475, spacing=4, widest=230) == 2


def test_a_text_wider_than_the_row_gets_a_row_of_its_own() -> None:
    assert columns_for(3, room=200, spacing=4, widest=500) == 1
    assert columns_for(0, room=200, spacing=4, widest=0) == 1


def test_no_more_columns_than_asked_and_the_rows_even_below_it() -> None:
    assert columns_for(10, room=600, spacing=6, widest=48, most=5) == 5  # ten faces: two rows of five
    assert columns_for(10, room=230, spacing=6, widest=48, most=5) == 4  # room for four: 4, 4 and 2


def test_a_row_watches_each_button_from_when_it_joins_to_when_it_leaves() -> None:
    from kivy.properties import NumericProperty, StringProperty
    from kivy.uix.widget import Widget

    from companion_app.ui.fitting_row import FittingRow

    class Face(Widget):  # type: ignore[misc]
        text = StringProperty("")
        font_size = NumericProperty(10)

    row = FittingRow()
    faces = [Face(text=str(i)) for i in range(10)]
    for face in faces:
        row.add_widget(face)
    row._fit.cancel()
    faces[3].text = "10"  # a button's new text: the columns are found again
    assert row._fit.is_triggered
    row.remove_widget(faces[3])
    row._fit.cancel()
    faces[3].text = "3"  # gone from the row: it no longer moves the row's columns
    assert not row._fit.is_triggered
    faces[4].font_size = 12
    assert row._fit.is_triggered
    assert len(faces[4].get_property_observers("text")) == 1  # watched once, not once per button added after it
