from django.urls import path

from audit.web import record_views

app_name = "record"

urlpatterns = [path("", record_views.my_record, name="mine")]
