"""The turn flow shared by every rule set: typed steps, turn order, opposed rolls and one dispatcher.

``steps`` (typed steps and their plain-data form), ``answers`` (checking an answer against its prompt),
``turns`` (roll-offs, fixed order, initiative every round, order by value), ``contest`` (opposed and
simultaneous rolls), ``machine`` (phases, stages and the dispatcher), ``words`` (names in sentences).
"""
