-- The day-grain time spine MetricFlow joins cumulative and time-offset metrics to.
{{
    config(materialized = 'table')
}}

with days as (
    {{ dbt.date_spine('day', "cast('2013-01-01' as date)", "cast('2014-01-01' as date)") }}
)

select cast(date_day as date) as date_day
from days
